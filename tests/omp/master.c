// '#pragma omp master': thread 0 alone computes a shared scale c = exp(0.1 sum_i x_i) (master has no barrier,
// so an explicit barrier follows), then every thread uses c in an 'omp for': y_i = c x_i^2, f = sum_i y_i / (1
// + i) (serially). In the reverse sweep thread 0 alone must carry c's adjoint, collected from all threads,
// back to x. Analytic gradient df/dx_k = 2 c x_k / (1 + k) + 0.1 c sum_i x_i^2 / (1 + i) (tolerance 1e-12),
// forward tangents along every unit direction (1e-12), central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 32 };

__attribute__((noinline)) static double f(const double *x, int n) {
  double c = 0, *y = malloc(n * sizeof *y);
#pragma omp parallel
  {
#pragma omp master
    {
      double s = 0;
      for (int i = 0; i < n; i++) s += x[i];
      c = exp(0.1 * s);
    }
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < n; i++) y[i] = c * x[i] * x[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] / (1 + i);
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
  double x[N], dx[N] = {0}, e[N], s = 0, q = 0;
  for (int i = 0; i < N; i++) X0[i] = x[i] = cos(1.3 * i) * 0.8, s += x[i], q += x[i] * x[i] / (1 + i);
  double c = exp(0.1 * s);
  __parad_autodiff((void *)f, x, dx, parad_const, N);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dx[k], 2 * c * x[k] / (1 + k) + 0.1 * c * q, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
