// '#pragma omp masked' (OpenMP 5.1): without a filter (thread 0), and with 'filter(nt - 1)' (the last thread
// of the team, a different one from thread 0 when there are several). The first masked block computes a shared
// shift m = mean(x), the second a shared scale c = 1 / (1 + sum_i x_i^2); a barrier follows each (masked has
// none). Then y_i = c (x_i - m)^2 in an 'omp for', f = sum_i y_i + m^2 (serially). Analytic gradient: with S2
// = sum_i (x_i - m)^2 and Q = sum_i x_i^2, df/dx_k = 2 c (x_k - m) - 2 c x_k S2 / (1 + Q) + 2 m / n (the
// mean's own term in S2 vanishes; tolerance 1e-12); forward tangents along every unit direction (1e-12);
// central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 28 };

__attribute__((noinline)) static double f(const double *x, int n) {
  double m = 0, c = 0, *y = malloc(n * sizeof *y);
#pragma omp parallel
  {
    int last = omp_get_num_threads() - 1;
#pragma omp masked
    {
      double s = 0;
      for (int i = 0; i < n; i++) s += x[i];
      m = s / n;
    }
#pragma omp masked filter(last)
    {
      double q = 0;
      for (int i = 0; i < n; i++) q += x[i] * x[i];
      c = 1 / (1 + q);
    }
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < n; i++) y[i] = c * (x[i] - m) * (x[i] - m);
  }
  double s = m * m;
  for (int i = 0; i < n; i++) s += y[i];
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
  double x[N], dx[N] = {0}, e[N], m = 0, q = 0, s2 = 0;
  for (int i = 0; i < N; i++) X0[i] = x[i] = sin(0.5 * i) + 0.04 * i, m += x[i], q += x[i] * x[i];
  m /= N;
  double c = 1 / (1 + q);
  for (int i = 0; i < N; i++) s2 += (x[i] - m) * (x[i] - m);
  __parad_autodiff((void *)f, x, dx, parad_const, N);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dx[k], 2 * c * (x[k] - m) - 2 * c * x[k] * s2 / (1 + q) + 2 * m / N, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
