// 'lastprivate(t, u)': each thread's private t and u, and after the loop the values of the sequentially last
// iteration (i = n-1) copied out by whichever thread ran it. y_i = t = x_i x_{i+1} (mod n), u = sin(x_i); f =
// sum_i y_i + t^2 + 3 u with t = x_{n-1} x_0 and u = sin(x_{n-1}). Only the thread that ran the last iteration
// contributes the adjoints of t and u. Analytic gradient (tolerance 1e-12), forward tangents along every unit
// direction (1e-12), central finite differences (h = 1e-6, tolerance 1e-7). A second loop with
// schedule(static, 3) and lastprivate is checked the same way (not dynamic: clang 19 with libomp 19 loses a
// dynamic loop's lastprivate value in about a third of runs with 4 threads, even without Parad).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 26 };

__attribute__((noinline)) static double f(const double *x, double *y, int n) {
  double t = 0, u = 0;
#pragma omp parallel for lastprivate(t, u)
  for (int i = 0; i < n; i++) {
    t = x[i] * x[(i + 1) % n];
    u = sin(x[i]);
    y[i] = t;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i];
  return s + t * t + 3 * u;
}

__attribute__((noinline)) static double g(const double *x, int n) {
  double t = 0;
#pragma omp parallel for schedule(static, 3) lastprivate(t)
  for (int i = 0; i < n; i++) t = exp(0.3 * x[i]) * x[n - 1 - i];
  return t * t;   /* t = exp(0.3 x_{n-1}) x_0 */
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, y, N) + g(x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, gx[N] = {0}, y[N], dy[N] = {0}, e[N], ty[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = 1.1 * sin(0.45 * i) + 0.3;
  __parad_autodiff((void *)f, x, dx, y, dy, parad_const, N);
  __parad_autodiff((void *)g, x, gx, parad_const, N);
  double tl = x[N - 1] * x[0], gt = exp(0.3 * x[N - 1]) * x[0];
  for (int k = 0; k < N; k++) {
    double want = x[(k + 1) % N] + x[(k + N - 1) % N];
    if (k == N - 1) want += 2 * tl * x[0] + 3 * cos(x[N - 1]);
    if (k == 0) want += 2 * tl * x[N - 1];
    CHECK_CLOSE(dx[k], want, 1e-12);
    double gwant = k == 0 ? 2 * gt * exp(0.3 * x[N - 1]) : k == N - 1 ? 2 * gt * 0.3 * gt : 0.0;
    CHECK_CLOSE(gx[k], gwant, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double tf = __parad_fwddiff((void *)f, x, e, y, ty, parad_const, N), tg = __parad_fwddiff((void *)g, x, e, parad_const, N);
    CHECK_CLOSE(dx[k], tf, 1e-12);
    CHECK_CLOSE(gx[k], tg, 1e-12);
    CHECK_CLOSE(tf + tg, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
