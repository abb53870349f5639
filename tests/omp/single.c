// '#pragma omp single': one thread (whichever arrives first) computes the shared norm r = |x| of the input,
// the others wait at the single's implicit barrier, then all normalise in an 'omp for': y_i = x_i / r, f =
// sum_i w_i y_i^3 (serially). The single's body runs on one thread in the forward sweep and its adjoint on
// that same thread's tape in the reverse sweep, after all threads have added their contributions to r's
// adjoint. A second region uses 'single nowait' followed by an explicit barrier. Analytic gradient df/dx_k = 3
// w_k y_k^2 / r - (x_k / r^3) sum_i 3 w_i y_i^2 x_i (tolerance 1e-12), forward tangents along every unit
// direction (1e-12), central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 25 };

__attribute__((noinline)) static double f(const double *x, const double *w, double *y, int n) {
  double r = 0;
#pragma omp parallel
  {
#pragma omp single
    {
      double s = 0;
      for (int i = 0; i < n; i++) s += x[i] * x[i];
      r = sqrt(s);
    }
#pragma omp for
    for (int i = 0; i < n; i++) y[i] = x[i] / r;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * y[i] * y[i] * y[i];
  return s;
}

__attribute__((noinline)) static double g(const double *x, const double *w, double *y, int n) {
  double r = 0;
#pragma omp parallel
  {
#pragma omp single nowait
    {
      double s = 0;
      for (int i = 0; i < n; i++) s += x[i] * x[i];
      r = sqrt(s);
    }
#pragma omp barrier
#pragma omp for schedule(dynamic, 2)
    for (int i = 0; i < n; i++) y[i] = x[i] / r;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * y[i] * y[i] * y[i];
  return s;
}

static double X0[N], W[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, W, y, N) + g(x, W, y, N);
}

int main(void) {
  double x[N], d1[N] = {0}, d2[N] = {0}, y[N], dy[N] = {0}, ty[N], e[N], r = 0, c = 0;
  for (int i = 0; i < N; i++) X0[i] = x[i] = sin(0.9 * i) + 0.3, W[i] = 1 - 0.05 * i, r += x[i] * x[i];
  r = sqrt(r);
  for (int i = 0; i < N; i++) c += 3 * W[i] * (x[i] / r) * (x[i] / r) * x[i];
  __parad_autodiff((void *)f, x, d1, parad_const, W, y, dy, parad_const, N);
  __parad_autodiff((void *)g, x, d2, parad_const, W, y, dy, parad_const, N);
  for (int k = 0; k < N; k++) {
    double want = 3 * W[k] * (x[k] / r) * (x[k] / r) / r - x[k] / (r * r * r) * c;
    CHECK_CLOSE(d1[k], want, 1e-12);
    CHECK_CLOSE(d2[k], want, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t1 = __parad_fwddiff((void *)f, x, e, parad_const, W, y, ty, parad_const, N);
    double t2 = __parad_fwddiff((void *)g, x, e, parad_const, W, y, ty, parad_const, N);
    CHECK_CLOSE(d1[k], t1, 1e-12);
    CHECK_CLOSE(d2[k], t2, 1e-12);
    CHECK_CLOSE(t1 + t2, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
