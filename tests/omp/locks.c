// OpenMP locks as critical sections: omp_set_lock / omp_unset_lock around commutative updates of shared
// accumulators, one lock per bin (bins[i mod 3] += x_i^2 under lock[i mod 3]) and one lock for a shared sum
// (acc += sin(x_i) x_{i+1}). Locks are created and destroyed inside the differentiated function. The reverse
// sweep replays the lock-protected sections one at a time in the opposite order. f = acc^2 + sum_r bins_r^3.
// Analytic gradient (tolerance 1e-12), forward tangents along every unit direction (1e-12), central finite
// differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <math.h>
#include <omp.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 29 };

__attribute__((noinline)) static double f(const double *x, int n) {
  omp_lock_t lock[3], sum_lock;
  double bins[3] = {0, 0, 0}, acc = 0;
  for (int r = 0; r < 3; r++) omp_init_lock(&lock[r]);
  omp_init_lock(&sum_lock);
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i], w = sin(x[i]) * x[(i + 1) % n];
    omp_set_lock(&lock[i % 3]);
    bins[i % 3] += v;
    omp_unset_lock(&lock[i % 3]);
    omp_set_lock(&sum_lock);
    acc += w;
    omp_unset_lock(&sum_lock);
  }
  for (int r = 0; r < 3; r++) omp_destroy_lock(&lock[r]);
  omp_destroy_lock(&sum_lock);
  return acc * acc + bins[0] * bins[0] * bins[0] + bins[1] * bins[1] * bins[1] + bins[2] * bins[2] * bins[2];
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, e[N], bins[3] = {0, 0, 0}, acc = 0;
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.8 * cos(0.7 * i) + 0.15;
  for (int i = 0; i < N; i++) bins[i % 3] += x[i] * x[i], acc += sin(x[i]) * x[(i + 1) % N];
  __parad_autodiff((void *)f, x, dx, parad_const, N);
  for (int k = 0; k < N; k++) {
    int kp = (k + 1) % N, km = (k + N - 1) % N;
    double want = 2 * acc * (cos(x[k]) * x[kp] + sin(x[km])) + 3 * bins[k % 3] * bins[k % 3] * 2 * x[k];
    CHECK_CLOSE(dx[k], want, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
