// Tasks that read constant memory: a parameter passed as constant (parad_const), or a view of it chosen
// against active memory, captured by `#pragma omp task` (once refused: the region shares the parameter's
// local, and the task's shareds block gets that local's address, which needed a shadow for the constant
// memory). The local shadows itself with the pointer it holds; the walk goes on into the task's loads of
// its shareds field (or of its private copy, for firstprivate), and the task, marked in its pattern,
// compares each load's shadow address with its address (ad/constants.c). c is a static const table: a
// reverse sweep that added into it would fault, a tangent that read it would be wrong. Cases:
//   shared:     tasks, one per element, read c (shared by default) and add into a shared sum atomically;
//   depend:     tasks ordered by depend(inout: x[i]) and depend(in: c[0:n]), the constant array's
//               address a dependence (made an integer: it never becomes an address again);
//   view:       a view p0 = x[0] > 0 ? x : c shared by the tasks, read at a gathered index;
//   private:    the same view firstprivate in each task;
//   taskloop:   a task loop reading c and the view, its chunks copies of one task;
//   orphaned:   tasks made by a function outside any region of its own, c (a parameter) each task's
//               private copy; requested alone (the tasks run at once) and called in a region's single;
//   chosen:     tasks choosing one of two shared scalars by comparing c with a value of the region: the
//               optimiser loads the scalar's address from a shareds field chosen by a select of offsets,
//               or of field addresses (refused, fuzz seed 11470: the walk of the fields' loads stopped
//               there);
// each with x chosen and with c chosen. Gradients against tangents along every unit direction (1e-12) and
// central differences (h = 1e-6, tolerance 1e-7), at 1 to 4 threads at -O2 and 3 at -O0; the table is
// checked unchanged.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 23 };
static const double TABLE[N] = {0.5,  -1.25, 2.0,  0.75, -0.5, 1.5,   0.25,  -0.75, 1.0,  -2.0,  0.125, 0.375,
                                -1.5, 1.75,  -0.25, 0.5, 1.25, -1.0, 2.25, 0.625, -0.125, 1.125, -0.875};

__attribute__((noinline)) double shared(const double *x, const double *c, int n) {
  double t = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
#pragma omp task shared(t)
    {
      double v = c[i] * x[i] * x[i] + sin(c[(i + 3) % n] * x[(i + 1) % n]);
#pragma omp atomic
      t += v;
    }
  }
  return t;
}

static double y[N];

__attribute__((noinline)) double depend(const double *x, const double *c, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i];
#pragma omp parallel
#pragma omp single
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < n; i++) {
#pragma omp task depend(inout : y[i]) depend(in : c[0 : n])
      y[i] = c[(i + k) % n] * y[i] + cos(y[i]) * c[i];
    }
  double t = 0;
  for (int i = 0; i < n; i++) t += y[i] * y[(i + 2) % n];
  return t;
}

__attribute__((noinline)) double view(const double *x, const double *c, int n) {
  const double *p0 = x[0] > 0 ? x : c;
  double t = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
#pragma omp task shared(t)
    {
      double v = p0[(5 * i + 2) % n] * x[i] + p0[i] * c[i] * x[(i + 1) % n];
#pragma omp atomic
      t += v;
    }
  }
  return t;
}

__attribute__((noinline)) double private_view(const double *x, const double *c, int n) {
  const double *p0 = x[1] < 0.5 ? c : x;
  double t = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(p0) shared(t)
    {
      double v = p0[(i + 4) % n] * x[i] * x[(i + 2) % n];
#pragma omp atomic
      t += v;
    }
  }
  return t;
}

__attribute__((noinline)) double taskloop(const double *x, const double *c, int n) {
  const double *p0 = x[2] > 0 ? x : c;
  double t = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(4) shared(t)
  for (int i = 0; i < n; i++) {
    double v = c[i] * x[i] * p0[(i + 1) % n];
#pragma omp atomic
    t += v;
  }
  return t;
}

/* tasks made outside any region of this function: c, a parameter, is each task's private copy */
__attribute__((noinline)) double orphaned(const double *x, const double *c, int n) {
  double t = 0;
  for (int i = 0; i < n; i++) {
#pragma omp task shared(t)
    {
      double v = c[i] * x[i] * x[i] + c[(i + 2) % n] * cos(x[(i + 1) % n]);
#pragma omp atomic
      t += v;
    }
  }
#pragma omp taskwait
  return t;
}

__attribute__((noinline)) double caller(const double *x, const double *c, int n) {
  double t = 0;
#pragma omp parallel
#pragma omp single
  t = orphaned(x, c, n) * x[3];
  return t;
}

/* a task choosing between two shared scalars by a comparison with c: the optimiser reads the chosen
   scalar's address from a shareds field chosen at run time, by offset (`shareds + (w < c[i] ? 24 : 16)`)
   or, with a field also read on its own, by address */
#define CHOSEN(NAME, ALSO)                                                                                  \
  __attribute__((noinline)) double NAME(const double *x, const double *c, int n) {                       \
    double a = x[0], b = x[1], t = 0;                                                                    \
    _Pragma("omp parallel") {                                                                            \
      double w = atan(x[2]);                                                                             \
      _Pragma("omp single") for (int i = 0; i < n; i++) {                                                \
        _Pragma("omp task shared(t)") {                                                                  \
          double v = (ALSO) + sin(w >= c[i] ? b : a) * x[i];                                             \
          _Pragma("omp atomic") t += v;                                                                  \
        }                                                                                                \
      }                                                                                                  \
    }                                                                                                    \
    return t;                                                                                            \
  }
CHOSEN(chosen_offset, 0)
CHOSEN(chosen_address, atan(a) * x[(i + 1) % n])

typedef double (*Fn)(const double *, const double *, int);

static void check_fn(const char *name, Fn f, const double *x) {
  double g[N] = {0}, v[N], z[N];
  __parad_autodiff((void *)f, x, g, parad_const, TABLE, N);
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) v[i] = i == j;
    double t = __parad_fwddiff((void *)f, x, v, parad_const, TABLE, N);
    memcpy(z, x, sizeof z);
    z[j] = x[j] + 1e-6;
    double up = f(z, TABLE, N);
    z[j] = x[j] - 1e-6;
    double fd = (up - f(z, TABLE, N)) / 2e-6;
    int before = check_failures;
    CHECK_CLOSE(g[j], t, 1e-12);
    CHECK_CLOSE(g[j], fd, 1e-7);
    if (check_failures > before) printf("  in %s, component %d\n", name, j);
  }
}

int main(void) {
  static const double copy[N] = {0.5,  -1.25, 2.0,  0.75, -0.5, 1.5,   0.25,  -0.75, 1.0,  -2.0,  0.125, 0.375,
                                 -1.5, 1.75,  -0.25, 0.5, 1.25, -1.0, 2.25, 0.625, -0.125, 1.125, -0.875};
  double x[N];
  for (int pass = 0; pass < 2; pass++) { /* pass 0: the views choose x; pass 1: the table */
    for (int i = 0; i < N; i++) x[i] = (pass ? -1 : 1) * (0.3 + 0.05 * i) * (i % 3 ? 1 : -1);
    x[0] = pass ? -0.8 : 0.8, x[1] = pass ? 0.2 : 0.9, x[2] = pass ? -0.4 : 0.6;
    check_fn("shared", shared, x);
    check_fn("depend", depend, x);
    check_fn("view", view, x);
    check_fn("private", private_view, x);
    check_fn("taskloop", taskloop, x);
    check_fn("orphaned", orphaned, x);
    check_fn("caller", caller, x);
    check_fn("chosen by offset", chosen_offset, x);
    check_fn("chosen by address", chosen_address, x);
  }
  CHECK_CLOSE(memcmp(TABLE, copy, sizeof copy) == 0, 1, 0);
  return check_done();
}
