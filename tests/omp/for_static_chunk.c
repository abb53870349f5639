// 'parallel for schedule(static, 3)': round-robin chunks of three iterations, so neighbouring chunks belong to
// different threads. Each iteration reads a window of four inputs and writes the caller's output array: y_i =
// sum_{j=max(0,i-3)}^{i} c_{i-j} x_j^2 (c = 1, 0.5, 0.25, 0.125); a serial loop after the region returns f =
// sum_i tanh(y_i). Reverse gradient checked against the analytic df/dx_k = sum_{i=k}^{k+3} (1 - tanh^2 y_i)
// c_{i-k} 2 x_k (tolerance 1e-12), against forward tangents of f along every unit direction (1e-12), and
// forward tangents against central finite differences (h = 1e-6, tolerance 1e-7). The tangent of the output y
// is checked against its analytic value too.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 41 };
static const double C[4] = {1, 0.5, 0.25, 0.125};

__attribute__((noinline)) static double f(const double *x, double *y, int n) {
#pragma omp parallel for schedule(static, 3)
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = i - 3 < 0 ? 0 : i - 3; j <= i; j++) s += C[i - j] * x[j] * x[j];
    y[i] = s;
  }
  double r = 0;
  for (int i = 0; i < n; i++) r += tanh(y[i]);
  return r;
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, y, N);
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N] = {0}, e[N], ty[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.8 * sin(1.1 * i) - 0.1;
  __parad_autodiff((void *)f, x, dx, y, dy, parad_const, N);
  for (int k = 0; k < N; k++) {
    double want = 0;
    for (int i = k; i < N && i <= k + 3; i++) want += (1 - tanh(y[i]) * tanh(y[i])) * C[i - k] * 2 * x[k];
    CHECK_CLOSE(dx[k], want, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, y, ty, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
    for (int i = 0; i < N; i++) CHECK_CLOSE(ty[i], i >= k && i <= k + 3 ? C[i - k] * 2 * x[k] : 0.0, 1e-14);
  }
  return check_done();
}
