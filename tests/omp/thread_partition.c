// Manual work partitioning with omp_get_thread_num() and omp_get_num_threads() in a bare 'parallel' region:
// thread t takes the block [n t / nt, n (t + 1) / nt), writes y_i = exp(0.3 x_i) x_{i+1} for its block and
// stores its partial sum of y_i^2 in partial[t] (a local array, one slot per thread); after the region the
// partials are added serially. Sizes n = 3, 5 and 43: with 4 threads and n = 3 thread 0 gets an empty block,
// with n = 5 the blocks have different sizes. f = sum_t partial[t]. Analytic gradient (tolerance 1e-12),
// forward tangents along every unit direction (1e-12), central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include <omp.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { NMAX = 43, TMAX = 64 };

__attribute__((noinline)) static double f(const double *x, double *y, int n) {
  double partial[TMAX];
#pragma omp parallel
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    int lo = n * t / nt, hi = n * (t + 1) / nt;
    double p = 0;
    for (int i = lo; i < hi; i++) {
      y[i] = exp(0.3 * x[i]) * x[(i + 1) % n];
      p += y[i] * y[i];
    }
    partial[t] = p;
  }
  double s = 0;
  for (int t = 0; t < omp_get_max_threads(); t++) s += partial[t];
  return s;
}

static double X0[NMAX];
static int Ncur;

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[NMAX], y[NMAX];
  for (int i = 0; i < Ncur; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, y, Ncur);
}

int main(void) {
  if (omp_get_max_threads() > TMAX) return printf("too many threads\n"), 1;
  int sizes[3] = {3, 5, NMAX};
  for (int c = 0; c < 3; c++) {
    int n = Ncur = sizes[c];
    double x[NMAX], dx[NMAX] = {0}, y[NMAX], dy[NMAX] = {0}, ty[NMAX], e[NMAX];
    for (int i = 0; i < n; i++) X0[i] = x[i] = 0.8 * cos(0.9 * i) + 0.1;
    __parad_autodiff((void *)f, x, dx, y, dy, parad_const, n);
    for (int k = 0; k < n; k++) {
      int kp = (k + 1) % n, km = (k + n - 1) % n;
      double yk = exp(0.3 * x[k]) * x[kp], ykm = exp(0.3 * x[km]) * x[k];
      double want = 2 * yk * 0.3 * yk + 2 * ykm * exp(0.3 * x[km]);
      CHECK_CLOSE(dx[k], want, 1e-12);
      for (int i = 0; i < n; i++) e[i] = i == k;
      double t = __parad_fwddiff((void *)f, x, e, y, ty, parad_const, n);
      CHECK_CLOSE(dx[k], t, 1e-12);
      CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
    }
  }
  return check_done();
}
