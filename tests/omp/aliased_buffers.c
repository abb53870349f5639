// One array read in a parallel region through two pointers, at addresses every thread reads: each pointer
// is an object of its own to the runtime, each thread keeps a private buffer of adjoints for each, and at
// the region's end the threads add the buffers into the shadow, each a slice of each object's addresses.
// The objects overlap (y = x + n/2), so that one thread's slice of y is another's slice of x: the threads
// must finish one object before starting the next (runtime/omp.c __parad_rt_shared_flush_final; without
// that, wrong components in most gradients at 2 threads). f(x) = sum_i x[7i mod n] y[13i mod n/2] +
// x[i] y[i mod n/2]. Analytic gradient, 1e-12, over 25 gradients at 1, 2, 3 and 4 threads, and a tangent
// (1e-12).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 4096, ROUNDS = 25 };

__attribute__((noinline)) static double f(const double *x, const double *y, int n) {
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[7 * i % n] * y[13 * i % (n / 2)] + x[i] * y[i % (n / 2)];
  return s;
}

static double x[N], dx[N], v[N], want[N];

int main(void) {
  for (int i = 0; i < N; i++) x[i] = 1 + 0.5 * __builtin_sin(0.1 * i);
  const double *y = x + N / 2;
  for (int i = 0; i < N; i++) { /* d/dx_k of each product, at k */
    want[7 * i % N] += y[13 * i % (N / 2)], want[N / 2 + 13 * i % (N / 2)] += x[7 * i % N];
    want[i] += y[i % (N / 2)], want[N / 2 + i % (N / 2)] += x[i];
  }
  int wrong = 0;
  for (int r = 0; r < ROUNDS; r++) {
    for (int i = 0; i < N; i++) dx[i] = 0;
    __parad_autodiff((void *)f, x, dx, x + N / 2, dx + N / 2, N);
    for (int i = 0; i < N; i++) wrong += !(__builtin_fabs(dx[i] - want[i]) <= 1e-12 * __builtin_fabs(want[i]));
  }
  CHECK_CLOSE((double)wrong, 0.0, 0);
  for (int i = 0; i < N; i += 101) CHECK_CLOSE(dx[i], want[i], 1e-12);
  double dot = 0;
  for (int i = 0; i < N; i++) v[i] = __builtin_cos(0.7 * i), dot += want[i] * v[i];
  CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, x + N / 2, v + N / 2, N), dot, 1e-12);
  return check_done();
}
