// A global table of coefficients that the program sets up before asking for derivatives (`init`, called
// from main with sin()), read by a parallel region and by a callee: its values there are program state, and
// its shadow is zero at the derivative's entry, so nothing differentiated stores active data into it and its
// reads carry nothing. A store outside the functions a request reaches does not make a global active (it
// did, once globals carried derivatives across functions: every read of the table added its adjoint, and in
// the region atomically, since the threads share a global's shadow: at 2 threads the gradient took 28
// primals, against 4 before). A second table (`scaled`) is written inside the derivative from x, and its
// reads do carry derivatives.
//   f = sum_i table_{i mod T} x_i^2 + sum_k scaled_k table_k, scaled_k = x_k table_k
//   df/dx_i = 2 table_{i mod T} x_i + [i < T] table_i^2
// Gradient and tangents against the analytic derivative (1e-12) at 1, 2 and 4 threads; built counting
// adjoint updates: under 5% atomic at 2 and 4 threads (the reduction's combining only; the table's reads
// would make them all atomic).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t.count -lm && OMP_NUM_THREADS=2 %t.count && OMP_NUM_THREADS=4 %t.count
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <omp.h>
#include <parad.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 4000, T = 16 };
static double table[T], scaled[T];

static void init(void) {
  for (int i = 0; i < T; i++) table[i] = sin(0.3 * i + 0.1);
}

__attribute__((noinline)) static double coupled(void) {
  double s = 0;
  for (int k = 0; k < T; k++) s += scaled[k] * table[k];
  return s;
}

static double f(const double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < N; i++) s += table[i % T] * x[i] * x[i];
  for (int k = 0; k < T; k++) scaled[k] = x[k] * table[k];
  return s + coupled();
}

int main(void) {
  static double x[N], g[N];
  init();
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.0001 * i;
  unsigned long long plain0, atomic0, plain1, atomic1;
  parad_adjoint_update_counts(&plain0, &atomic0);
  __parad_autodiff((void *)f, x, g);
  parad_adjoint_update_counts(&plain1, &atomic1);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], 2 * table[i % T] * x[i] + (i < T ? table[i] * table[i] : 0), 1e-12);
  for (int i = 0; i < N; i += 397) {
    static double v[N];
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), 2 * table[i % T] * x[i] + (i < T ? table[i] * table[i] : 0), 1e-12);
    v[i] = 0;
  }
  unsigned long long atomics = atomic1 - atomic0, updates = atomics + plain1 - plain0;
#ifdef COUNTED
  CHECK_CLOSE((double)(updates > 0), 1, 0); /* the counts saw the updates */
  if (atomics * 20 >= updates) printf("FAIL: %llu of %llu adjoint updates were atomic\n", atomics, updates), check_failures++;
#endif
  (void)updates;
  return check_done();
}
