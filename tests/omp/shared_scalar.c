// Shared scalars read by every thread: the parameter c (captured by reference) and the mean m of x, computed
// serially before the region; every iteration reads both, so their adjoints collect contributions from all
// threads (added concurrently), and m's adjoint then flows back to every x_k. y_i = sin(c x_i) + (x_i - m)^2,
// f = sum_i w_i y_i. Analytic: df/dc = sum w_i x_i cos(c x_i), df/dx_k = w_k (c cos(c x_k) + 2 (x_k - m)) -
// (2/n) sum_i w_i (x_i - m) (tolerance 1e-12); forward tangents along every direction of x and along c
// (1e-12); central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 40 };

__attribute__((noinline)) static double f(const double *x, double c, const double *w, int n) {
  double m = 0;
  for (int i = 0; i < n; i++) m += x[i];
  m /= n;
  double s = 0;
#pragma omp parallel for shared(c, m) reduction(+ : s)
  for (int i = 0; i < n; i++) s += w[i] * (sin(c * x[i]) + (x[i] - m) * (x[i] - m));
  return s;
}

static double X0[N], W[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, 0.8 + (k == N) * t, W, N);
}

int main(void) {
  double x[N], dx[N] = {0}, e[N], c = 0.8;
  for (int i = 0; i < N; i++) X0[i] = x[i] = cos(0.3 * i) * 1.5, W[i] = 1 + 0.5 * sin(i);
  double dc = __parad_autodiff((void *)f, x, dx, c, parad_const, W, parad_const, N);
  double m = 0, sc = 0, sm = 0;
  for (int i = 0; i < N; i++) m += x[i];
  m /= N;
  for (int i = 0; i < N; i++) sc += W[i] * x[i] * cos(c * x[i]), sm += W[i] * (x[i] - m);
  CHECK_CLOSE(dc, sc, 1e-12);
  for (int k = 0; k <= N; k++) {
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, c, (double)(k == N), parad_const, W, parad_const, N);
    if (k < N) {
      CHECK_CLOSE(dx[k], W[k] * (c * cos(c * x[k]) + 2 * (x[k] - m)) - 2.0 / N * sm, 1e-12);
      CHECK_CLOSE(dx[k], t, 1e-12);
    } else
      CHECK_CLOSE(dc, t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
