// Parallel loops that read one fixed element of shared active memory besides their own, x[0] * x[i], in the
// shapes that once stopped reverse mode at -O2 (the address of x[0] is computed behind the loop's zero-trip
// guard, which does not dominate the region's end): a reduction(+), an atomic update of a shared scalar, a
// critical section, a plain shared write y[i] = x[0] x[i], and a masked block reading x[0] before a barrier;
// and a region that reads x[2] only on a branch it never takes (its adjoint sum must not be added into a
// shadow address that was never computed: a program of the fuzzer crashed so).
// Each f_k(x) sums to one value; with S = sum_i x_i the analytic gradients are
//   reduction, atomic, critical:  f = x_0 S               df/dx_0 = S + x_0,      df/dx_i = x_0
//   shared write:                 f = sum_i w_i x_0 x_i    df/dx_0 = sum_i w_i x_i + w_0 x_0, df/dx_i = w_i x_0
//   masked:                       f = sum_i (x_0^2 + 1) x_i with x_0^2 + 1 computed once under masked
//   untaken branch:               f = x_0 x_1                df/dx_0 = x_1, df/dx_1 = x_0
// (tolerance 1e-12), forward tangents along every unit direction (1e-12), and central finite differences
// (h = 1e-6, tolerance 1e-7). n is a run-time value, so the loops keep their guards.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=1 %t0 && OMP_NUM_THREADS=2 %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 23 };

__attribute__((noinline)) static double by_reduction(const double *x, int n) {
  double a = 0;
#pragma omp parallel for reduction(+ : a)
  for (int i = 0; i < n; i++) a += x[0] * x[i];
  return a;
}

__attribute__((noinline)) static double by_atomic(const double *x, int n) {
  double a = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double t = x[0] * x[i];
#pragma omp atomic
    a += t;
  }
  return a;
}

__attribute__((noinline)) static double by_critical(const double *x, int n) {
  double a = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double t = x[0] * x[i];
#pragma omp critical
    a += t;
  }
  return a;
}

static double weight(int i) { return 1 + 0.25 * i; }

__attribute__((noinline)) static double by_shared_write(const double *x, int n) {
  double *y = malloc(n * sizeof *y), a = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = x[0] * x[i];
  for (int i = 0; i < n; i++) a += weight(i) * y[i];
  free(y);
  return a;
}

__attribute__((noinline)) static double by_masked(const double *x, int n) {
  double c = 0, a = 0;
#pragma omp parallel reduction(+ : a)
  {
#pragma omp masked
    c = x[0] * x[0] + 1;
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < n; i++) a += c * x[i];
  }
  return a;
}

__attribute__((noinline)) static double by_untaken(const double *x, int n) {
  double a = 0;
#pragma omp parallel
  {
    double t = tanh(n < 0 ? x[2] : 0.5); /* kept: tanh may set errno */
    (void)t;
#pragma omp single
    a = x[0] * x[1];
  }
  return a;
}

typedef double (*Fn)(const double *, int);
static Fn fn;
static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return fn(x, N);
}

static double want(int which, const double *x, int k) {
  double s = 0, sw = 0;
  for (int i = 0; i < N; i++) s += x[i], sw += weight(i) * x[i];
  switch (which) {
  case 3: return k == 0 ? sw + weight(0) * x[0] : weight(k) * x[0];
  case 4: return (x[0] * x[0] + 1) + (k == 0 ? 2 * x[0] * s : 0);
  case 5: return k == 0 ? x[1] : k == 1 ? x[0] : 0;
  default: return k == 0 ? s + x[0] : x[0];
  }
}

#define CHECK_FUNCTION(f, which)                                                 \
  do {                                                                           \
    double dx[N] = {0};                                                          \
    fn = f;                                                                      \
    __parad_autodiff((void *)f, x, dx, N);                                       \
    for (int k = 0; k < N; k++) {                                                \
      CHECK_CLOSE(dx[k], want(which, x, k), 1e-12);                              \
      for (int i = 0; i < N; i++) e[i] = i == k;                                 \
      CHECK_CLOSE(__parad_fwddiff((void *)f, x, e, N), dx[k], 1e-12);            \
      CHECK_CLOSE(dx[k], fd_central(along, &k, 0, 1e-6), 1e-7);                  \
    }                                                                            \
  } while (0)

int main(void) {
  double x[N], e[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.4 * sin(1.3 * i) + 0.6;
  CHECK_FUNCTION(by_reduction, 0);
  CHECK_FUNCTION(by_atomic, 1);
  CHECK_FUNCTION(by_critical, 2);
  CHECK_FUNCTION(by_shared_write, 3);
  CHECK_FUNCTION(by_masked, 4);
  CHECK_FUNCTION(by_untaken, 5);
  return check_done();
}
