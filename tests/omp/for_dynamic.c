// 'parallel for schedule(dynamic, 2)': which thread runs which pair of iterations is decided at run time,
// differently on each call, so the reverse sweep must replay each thread's own chunks from its tape.
// Iterations have different amounts of work: y_i = g^{(i mod 5)}(x_i) with g(u) = sin(u) + 0.5 x_i applied i
// mod 5 times starting from u = x_i; a serial loop returns f = sum_i w_i y_i. Reverse gradient checked against
// the analytic derivative (the chain rule along the recurrence, d <- cos(u) d + 0.5, computed in main;
// tolerance 1e-12), against forward tangents along every unit direction (1e-12), and forward tangents against
// central finite differences (h = 1e-6, tolerance 1e-7). Also built at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 45 };

__attribute__((noinline)) static double f(const double *x, double *y, const double *w, int n) {
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = 0; i < n; i++) {
    double u = x[i];
    for (int r = 0; r < i % 5; r++) u = sin(u) + 0.5 * x[i];
    y[i] = u;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * y[i];
  return s;
}

static double X0[N], W[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, y, W, N);
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N] = {0}, e[N], ty[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = 1.2 * cos(0.7 * i), W[i] = 1 + 0.02 * i;
  __parad_autodiff((void *)f, x, dx, y, dy, parad_const, W, parad_const, N);
  for (int k = 0; k < N; k++) {
    double u = x[k], d = 1;
    for (int r = 0; r < k % 5; r++) d = cos(u) * d + 0.5, u = sin(u) + 0.5 * x[k];
    CHECK_CLOSE(y[k], u, 1e-14);
    CHECK_CLOSE(dx[k], W[k] * d, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, y, ty, parad_const, W, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
