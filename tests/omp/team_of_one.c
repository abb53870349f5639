// A team of one thread never needs an atomic adjoint update: in a region that hands the shared array to a
// function it calls for each pair of a list, where Parad does not follow which thread reads what, the
// reverse sweep adds atomically at 2 and 4 threads, and plainly (no atomic at all) at 1 thread. Built
// with PARAD_COUNT_UPDATES, which makes the gradient count its adjoint updates of shared memory. The
// gradient of E = sum over listed pairs (x_i - x_j)^2 w_ij is checked against the analytic one (1e-12)
// at every thread count.
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <omp.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { N = 40, PAIRS = 3 * N };

typedef struct {
  const int *first, *second; /* the pairs */
  const double *weight;
  int n;
} List;

__attribute__((noinline)) static double pair(const double *x, int i, int j, double w) {
  double d = x[i] - x[j];
  return w * d * d;
}

__attribute__((noinline)) static double energy(const double *x, const List *l) {
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int k = 0; k < l->n; k++) e += pair(x, l->first[k], l->second[k], l->weight[k]);
  return e;
}

int main(void) {
  static int first[PAIRS], second[PAIRS];
  static double w[PAIRS];
  double x[N], dx[N] = {0}, want[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.1 * i * i - 0.5 * i;
  for (int k = 0; k < PAIRS; k++) first[k] = k % N, second[k] = (7 * k + 3) % N, w[k] = 1 + 0.01 * k;
  for (int k = 0; k < PAIRS; k++) {
    double g = 2 * w[k] * (x[first[k]] - x[second[k]]);
    want[first[k]] += g, want[second[k]] -= g;
  }
  List l = {first, second, w, PAIRS};
  unsigned long long plain0, atomic0, plain1, atomic1;
  parad_adjoint_update_counts(&plain0, &atomic0);
  __parad_autodiff((void *)energy, x, dx, parad_const, &l);
  parad_adjoint_update_counts(&plain1, &atomic1);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], want[i], 1e-12);
  unsigned long long atomics = atomic1 - atomic0, updates = atomics + plain1 - plain0;
  CHECK_CLOSE((double)(updates > 0), 1, 0);
  if (omp_get_max_threads() == 1) CHECK_CLOSE((double)atomics, 0, 0);
  else CHECK_CLOSE((double)(atomics > 0), 1, 0); /* the count sees the atomic path: this test would see a regression */
  return check_done();
}
