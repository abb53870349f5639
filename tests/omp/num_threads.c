// The 'num_threads' clause: a region of exactly 3 threads (whatever OMP_NUM_THREADS says) in which each thread
// handles the elements i = tid mod 3, and a 'parallel for num_threads(2) reduction(+ : s)'. The reverse sweep
// must fork a team of the same size as the forward sweep's. y_i = x_i^3 - x_i written by thread i mod 3
// (checked: the owner is recorded), f = sum_i y_i c_i + (sum_i x_i sin x_i)^2 / 2. Analytic gradient
// (tolerance 1e-12), forward tangents along every unit direction (1e-12), central finite differences (h =
// 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <math.h>
#include <omp.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 20 };

static int owner[N];

__attribute__((noinline)) static double f(const double *x, const double *c, double *y, int n) {
#pragma omp parallel num_threads(3)
  {
    int tid = omp_get_thread_num(), nt = omp_get_num_threads();
    for (int i = tid; i < n; i += nt) {
      y[i] = x[i] * x[i] * x[i] - x[i];
      owner[i] = nt == 3 ? tid : -1;
    }
  }
  double s = 0, r = 0;
#pragma omp parallel for num_threads(2) reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * sin(x[i]);
  for (int i = 0; i < n; i++) r += y[i] * c[i];
  return r + 0.5 * s * s;
}

static double X0[N], C[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, C, y, N);
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N] = {0}, ty[N], e[N], s = 0;
  for (int i = 0; i < N; i++) X0[i] = x[i] = sin(1.2 * i) + 0.1, C[i] = 1 + 0.1 * i, s += x[i] * sin(x[i]);
  __parad_autodiff((void *)f, x, dx, parad_const, C, y, dy, parad_const, N);
  for (int i = 0; i < N; i++)
    if (owner[i] != i % 3) printf("FAIL: element %d written by thread %d\n", i, owner[i]), check_failures++;
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dx[k], C[k] * (3 * x[k] * x[k] - 1) + s * (sin(x[k]) + x[k] * cos(x[k])), 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, parad_const, C, y, ty, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
