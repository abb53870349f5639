// '#pragma omp atomic write' and 'atomic read': in one region, each iteration of a first 'omp for' atomically
// writes its own element y_i = x_i^2 (one writer per location), and every thread atomically writes the same
// value g = 3 x_0 into a shared scalar (all writers write the same value, so the adjoint of g must be counted
// once, not once per thread). After the loop's barrier a second 'omp for' atomically reads y_{i+1} (written by
// another thread) and g, accumulating s += y_{i+1} x_i + g x_i. f = s + g^2. Analytic: df/dx_k = 2 x_k x_{k-1}
// + x_{k+1}^2 + g + (k == 0)(3 sum_i x_i + 6 g) (indices mod n; tolerance 1e-12); forward tangents along every
// unit direction (1e-12); central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 27 };

__attribute__((noinline)) static double f(const double *x, int n) {
  double *y = malloc(n * sizeof *y), g = 0, s = 0;
#pragma omp parallel
  {
#pragma omp atomic write
    g = 3 * x[0];
#pragma omp for
    for (int i = 0; i < n; i++) {
#pragma omp atomic write
      y[i] = x[i] * x[i];
    }
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; i++) {
      double v, gg;
#pragma omp atomic read
      v = y[(i + 1) % n];
#pragma omp atomic read
      gg = g;
      s += v * x[i] + gg * x[i];
    }
  }
  free(y);
  return s + g * g;
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, e[N], sx = 0;
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.6 * cos(1.1 * i) + 0.3, sx += x[i];
  double g = 3 * x[0];
  __parad_autodiff((void *)f, x, dx, parad_const, N);
  for (int k = 0; k < N; k++) {
    int kp = (k + 1) % N, km = (k + N - 1) % N;
    double want = 2 * x[k] * x[km] + x[kp] * x[kp] + g + (k == 0 ? 3 * sx + 6 * g : 0.0);
    CHECK_CLOSE(dx[k], want, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
