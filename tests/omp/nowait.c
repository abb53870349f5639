// 'omp for nowait': two independent worksharing loops in one region, the first without its barrier, so a
// thread may start the second loop while others still run the first. Both read all of x (the second loop reads
// mirrored elements) and write separate outputs: y_i = sin(x_i) x_{i+1}, z_i = x_i^2 - x_{n-1-i}; after the
// region, f = sum_i y_i z_i (serially). In the reverse sweep the adjoints of x from both loops meet in dx
// concurrently. Analytic gradient (tolerance 1e-12), forward tangents along every unit direction (1e-12),
// central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 33 };

__attribute__((noinline)) static double f(const double *x, double *y, double *z, int n) {
#pragma omp parallel
  {
#pragma omp for nowait schedule(static)
    for (int i = 0; i < n; i++) y[i] = sin(x[i]) * x[(i + 1) % n];
#pragma omp for schedule(dynamic, 2)
    for (int i = 0; i < n; i++) z[i] = x[i] * x[i] - x[n - 1 - i];
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * z[i];
  return s;
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N], y[N], z[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, y, z, N);
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], z[N], dy[N] = {0}, dz[N] = {0}, ty[N], tz[N], e[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = cos(0.4 * i + 0.5) + 0.2;
  __parad_autodiff((void *)f, x, dx, y, dy, z, dz, parad_const, N);
  for (int k = 0; k < N; k++) {
    int kp = (k + 1) % N, km = (k + N - 1) % N, mirror = N - 1 - k;
    double yk = sin(x[k]) * x[kp], zk = x[k] * x[k] - x[mirror];
    double want = cos(x[k]) * x[kp] * zk + sin(x[km]) * (x[km] * x[km] - x[N - 1 - km]) + yk * 2 * x[k];
    want -= sin(x[mirror]) * x[(mirror + 1) % N]; /* z_{n-1-k} = ... - x_k, times y_{n-1-k} */
    CHECK_CLOSE(dx[k], want, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, y, ty, z, tz, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
