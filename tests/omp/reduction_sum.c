// 'reduction(+ : ...)' on scalars: a 'parallel for' with one reduced variable, and a 'parallel' region with an
// 'omp for' reducing two variables at once, whose results are multiplied after the region. f1 = sum_i x_i
// exp(-x_i^2); f2 = (sum_i sin x_i)(sum_i x_i^2 / (1 + i)). The partial sums of the threads are combined in an
// order that depends on who arrives first, which changes only the rounding. Analytic gradients (tolerance
// 1e-12), forward tangents along every unit direction (1e-12), central finite differences (h = 1e-6, tolerance
// 1e-7: truncation ~1e-12, rounding eps/h ~1e-10).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 64 };

__attribute__((noinline)) static double f1(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * exp(-x[i] * x[i]);
  return s;
}

__attribute__((noinline)) static double f2(const double *x, int n) {
  double a = 0, b = 0;
#pragma omp parallel
  {
#pragma omp for reduction(+ : a, b) schedule(static, 5)
    for (int i = 0; i < n; i++) {
      a += sin(x[i]);
      b += x[i] * x[i] / (1 + i);
    }
  }
  return a * b;
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f1(x, N) + f2(x, N);
}

int main(void) {
  double x[N], d1[N] = {0}, d2[N] = {0}, e[N], a = 0, b = 0;
  for (int i = 0; i < N; i++) X0[i] = x[i] = sin(0.77 * i) + 0.25;
  __parad_autodiff((void *)f1, x, d1, parad_const, N);
  __parad_autodiff((void *)f2, x, d2, parad_const, N);
  for (int i = 0; i < N; i++) a += sin(x[i]), b += x[i] * x[i] / (1 + i);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(d1[k], exp(-x[k] * x[k]) * (1 - 2 * x[k] * x[k]), 1e-12);
    CHECK_CLOSE(d2[k], cos(x[k]) * b + a * 2 * x[k] / (1 + k), 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t1 = __parad_fwddiff((void *)f1, x, e, parad_const, N), t2 = __parad_fwddiff((void *)f2, x, e, parad_const, N);
    CHECK_CLOSE(d1[k], t1, 1e-12);
    CHECK_CLOSE(d2[k], t2, 1e-12);
    CHECK_CLOSE(t1 + t2, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
