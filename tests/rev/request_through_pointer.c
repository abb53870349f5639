// A request whose function is a pointer the program holds, as a library's optimiser is written: `grad(f, x,
// g, n)` and `tangent(f, ...)` are functions other files may call (not static: before, refused with "the
// first argument must be a function named in this file"), given the objective by their callers; a model
// chosen between two by a condition; a table of problems, the objective read from it (at -O2 its type is
// known from the functions seen; at -O0, where the pointer is loaded from a stack slot, from the types of
// the functions whose address the program takes that fit the arguments, a void callback of the same
// parameters beside them); vector forward mode of two directions; a scalar argument's gradient returned.
//   rosen(x) = sum 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2;  quad(x) = sum (i + 1) x_i^2;
//   wave(k, x) = sum sin(k x_i) x_{i+1}: d/dx_j = sin(k x_{j-1}) + k cos(k x_j) x_{j+1}
// Gradients against analytic derivatives (1e-12), tangents along unit directions against them (1e-12),
// the scalar's gradient against central differences (h = 1e-6, 1e-7).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
typedef struct { double t[2]; } Pair;
Pair __parad_fwddiff_pair(void *, ...);

enum { N = 5 };
typedef double (*Objective)(const double *, int);
typedef void (*Report)(const double *, int);

static double rosen(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += 100 * (x[i + 1] - x[i] * x[i]) * (x[i + 1] - x[i] * x[i]) + (1 - x[i]) * (1 - x[i]);
  return s;
}
static void rosen_grad(const double *x, int n, double *g) {
  memset(g, 0, sizeof(double) * n);
  for (int i = 0; i + 1 < n; i++) {
    double r = x[i + 1] - x[i] * x[i];
    g[i] += -400 * r * x[i] - 2 * (1 - x[i]);
    g[i + 1] += 200 * r;
  }
}
static double quad(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * x[i] * x[i];
  return s;
}
static void quad_grad(const double *x, int n, double *g) {
  for (int i = 0; i < n; i++) g[i] = 2 * (i + 1) * x[i];
}
static double wave(double k, const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += sin(k * x[i]) * x[i + 1];
  return s;
}
static int reported;
static void report(const double *x, int n) { reported += n + (x[0] > 0); }

/* the library's side: given the objective */
__attribute__((noinline)) void grad(Objective f, const double *x, double *g, int n) {
  memset(g, 0, sizeof(double) * n);
  __parad_autodiff((void *)f, x, g, parad_const, n);
}
__attribute__((noinline)) double tangent(Objective f, const double *x, const double *v, int n) {
  return __parad_fwddiff((void *)f, x, v, parad_const, n);
}
__attribute__((noinline)) Pair tangents(Objective f, const double *x, const double *v0, const double *v1, int n) {
  return __parad_fwddiff_pair((void *)f, parad_width, 2, x, v0, v1, parad_const, n);
}

struct problem {
  const char *name;
  Objective f;
  void (*exact)(const double *, int, double *);
};
static struct problem problems[] = {{"rosen", rosen, rosen_grad}, {"quad", quad, quad_grad}};
Report reporter = report;

static void check_problem(Objective f, void (*exact)(const double *, int, double *), const double *x) {
  double g[N], want[N];
  exact(x, N, want);
  grad(f, x, g, N);
  for (int k = 0; k < N; k++) CHECK_CLOSE(g[k], want[k], 1e-12);
  for (int k = 0; k + 1 < N; k++) {
    double v0[N] = {0}, v1[N] = {0};
    v0[k] = 1, v1[k + 1] = 1;
    CHECK_CLOSE(tangent(f, x, v0, N), want[k], 1e-12);
    Pair t = tangents(f, x, v0, v1, N);
    CHECK_CLOSE(t.t[0], want[k], 1e-12);
    CHECK_CLOSE(t.t[1], want[k + 1], 1e-12);
  }
}

int main(int argc, char **argv) {
  (void)argv;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.4 + 0.3 * sin(1.7 * i);
  for (int p = 0; p < 2; p++) check_problem(problems[p].f, problems[p].exact, x);
  reporter(x, N);

  /* a model chosen by a condition, asked for directly */
  Objective model = argc > 5 ? rosen : quad;
  double g[N] = {0}, want[N];
  __parad_autodiff((void *)model, x, g, parad_const, N);
  quad_grad(x, N, want);
  for (int k = 0; k < N; k++) CHECK_CLOSE(g[k], want[k], 1e-12);

  /* a scalar argument's gradient returned, through a pointer */
  double (*w)(double, const double *, int) = argc > 5 ? 0 : wave;
  double k = 1.3, dx[N] = {0};
  double dk = __parad_autodiff((void *)w, k, x, dx, parad_const, N);
  double h = 1e-6;
  CHECK_CLOSE(dk, (wave(k + h, x, N) - wave(k - h, x, N)) / (2 * h), 1e-7);
  for (int j = 0; j < N; j++)
    CHECK_CLOSE(dx[j], (j ? sin(k * x[j - 1]) : 0) + (j + 1 < N ? k * cos(k * x[j]) * x[j + 1] : 0), 1e-12);
  return check_done() + (reported != N + 1);
}
