// 'parallel for schedule(guided)' and 'schedule(guided, 4)': chunks shrinking as work runs out, handed out at
// run time. Iteration i reads x_i and the mirrored x_{n-1-i}, which usually belongs to another thread: y_i =
// log(1 + x_i^2) x_{n-1-i} (guided), then z_i = y_i exp(-0.1 y_{n-1-i}) (guided, 4) in a second region; f =
// sum_i z_i, serially. Reverse gradient checked against forward tangents along every unit direction (tolerance
// 1e-12), against central finite differences (h = 1e-6, tolerance 1e-7), and the first loop alone (f1 = sum_i
// y_i) against the analytic gradient df1/dx_k = 2 x_k / (1 + x_k^2) x_{n-1-k} + log(1 + x_{n-1-k}^2)
// (tolerance 1e-12).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 101 };

__attribute__((noinline)) static double f1(const double *x, int n) {
  double *y = malloc(n * sizeof *y), s = 0;
#pragma omp parallel for schedule(guided)
  for (int i = 0; i < n; i++) y[i] = log(1 + x[i] * x[i]) * x[n - 1 - i];
  for (int i = 0; i < n; i++) s += y[i];
  free(y);
  return s;
}

__attribute__((noinline)) static double f2(const double *x, int n) {
  double *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z), s = 0;
#pragma omp parallel for schedule(guided)
  for (int i = 0; i < n; i++) y[i] = log(1 + x[i] * x[i]) * x[n - 1 - i];
#pragma omp parallel for schedule(guided, 4)
  for (int i = 0; i < n; i++) z[i] = y[i] * exp(-0.1 * y[n - 1 - i]);
  for (int i = 0; i < n; i++) s += z[i];
  free(y);
  free(z);
  return s;
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f2(x, N);
}

int main(void) {
  double x[N], d1[N] = {0}, d2[N] = {0}, e[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = sin(0.3 * i) + 0.4;
  __parad_autodiff((void *)f1, x, d1, parad_const, N);
  __parad_autodiff((void *)f2, x, d2, parad_const, N);
  for (int k = 0; k < N; k++) {
    double xm = x[N - 1 - k];
    CHECK_CLOSE(d1[k], 2 * x[k] / (1 + x[k] * x[k]) * xm + log(1 + xm * xm), 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(d1[k], __parad_fwddiff((void *)f1, x, e, parad_const, N), 1e-12);
    double t = __parad_fwddiff((void *)f2, x, e, parad_const, N);
    CHECK_CLOSE(d2[k], t, 1e-12);
    CHECK_CLOSE(d2[k], fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
