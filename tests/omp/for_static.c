// 'parallel for schedule(static)' writing a heap scratch array that a serial loop after the region reduces:
// y_i = x_i sin(x_{i+1}) (indices mod n), f = sum_i a_i y_i^2 with a_i = 1 + i/n. The gradient's terms for
// x_{i+1} come from the iteration that another thread may own. Reverse gradient checked against the analytic
// df/dx_k = 2 a_k y_k sin(x_{k+1}) + 2 a_{k-1} y_{k-1} x_{k-1} cos(x_k) (tolerance 1e-12, rounding only),
// against forward tangents along every unit direction (1e-12), and forward tangents against central finite
// differences (h = 1e-6, tolerance 1e-7: truncation ~1e-12, rounding eps/h ~ 1e-10). Also built at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 50 };

__attribute__((noinline)) static double f(const double *x, int n) {
  double *y = malloc(n * sizeof *y);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) y[i] = x[i] * sin(x[(i + 1) % n]);
  double s = 0;
  for (int i = 0; i < n; i++) s += (1 + (double)i / n) * y[i] * y[i];
  free(y);
  return s;
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, e[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = cos(0.37 * i) + 0.05 * i;
  __parad_autodiff((void *)f, x, dx, parad_const, N);
  for (int k = 0; k < N; k++) {
    int kp = (k + 1) % N, km = (k + N - 1) % N;
    double yk = x[k] * sin(x[kp]), ykm = x[km] * sin(x[k]);
    double want = 2 * (1 + (double)k / N) * yk * sin(x[kp]) + 2 * (1 + (double)km / N) * ykm * x[km] * cos(x[k]);
    CHECK_CLOSE(dx[k], want, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
