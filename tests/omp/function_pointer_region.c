// Calls through function pointers inside parallel regions: a pair potential chosen at run time from a
// table (each thread calls it for its pairs, and the call's derivative is the parallel one: adjoints of
// shared data added atomically or per thread), and a per-element transform passed as a callback to a
// function that runs the region. E(x) = sum_{i<j} phi(|x_i - x_j|) + sum_i g(x_i), phi and g chosen by
// `which`. The pair function takes the potential's coefficients, a constant argument of the gradient,
// which the candidates only read (once refused: every pointer a call through a pointer takes was given a
// shadow). Checked against central finite differences (h = 1e-6, tolerance 1e-7) and forward tangents
// (1e-12), at 1, 2 and 4 threads.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=1 %t0 && OMP_NUM_THREADS=2 %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 13 };

typedef struct {
  double a, b;
} Coeff;
typedef double (*Pair)(const Coeff *c, double r);
static double lj(const Coeff *c, double r) { return c->a * (pow(1 / r, 12) - c->b * pow(1 / r, 6)); }
static double soft(const Coeff *c, double r) { return c->a * exp(-r * r) / (1 + c->b * r); }
static const Pair pairs[2] = {lj, soft};
static const Coeff coeffs[2] = {{4, 1}, {1, 1}};

typedef double (*Site)(double v);
static double well(double v) { return 0.5 * v * v; }
static double tilt(double v) { return sin(v) + 0.1 * v * v * v; }

__attribute__((noinline)) static double sites(Site g, const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += g(x[i]);
  return s;
}

__attribute__((noinline)) static double energy(const double *x, int n, int which, const Coeff *c) {
  Pair phi = pairs[which];
  double e = 0;
#pragma omp parallel for reduction(+ : e) schedule(dynamic, 2)
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) e += phi(c, fabs(x[i] - x[j]) + 0.5);
  return e + sites(which ? tilt : well, x, n);
}

static double X0[N];
static int WHICH;
static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return energy(x, N, WHICH, &coeffs[WHICH]);
}

int main(void) {
  for (int i = 0; i < N; i++) X0[i] = 1.1 * i + 0.3 * sin(2.0 * i);
  for (WHICH = 0; WHICH < 2; WHICH++) {
    double dx[N] = {0}, e[N];
    __parad_autodiff((void *)energy, X0, dx, N, WHICH, parad_const, &coeffs[WHICH]);
    for (int k = 0; k < N; k++) {
      CHECK_CLOSE(dx[k], fd_central(along, &k, 0, 1e-6), 1e-7);
      for (int i = 0; i < N; i++) e[i] = i == k;
      CHECK_CLOSE(__parad_fwddiff((void *)energy, X0, e, N, WHICH, parad_const, &coeffs[WHICH]), dx[k], 1e-12);
    }
  }
  return check_done();
}
