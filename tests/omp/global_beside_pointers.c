// A parallel region that uses global arrays holding derivatives beside an array passed by pointer: the
// globals' adjoints are added atomically (a global's shadow is a global of its own, which the per-thread
// plans do not follow), but the region's other objects keep their plans: each thread adds plainly where no
// other thread read. Before, one such global made every adjoint update of the region atomic.
//   smooth(x, y): y_i = x_i^2 (y by pointer); the global w_i = v_{i-1} + 2 v_i + v_{i+1} (v a global, 0
//   outside the range); total = sum_i w_i x_i + sum_i y_i sin(x_i) + sum_i w_{N-1} x_i / 2 (w's last
//   element at a constant address, which clang folds into a constant expression: the object is w all
//   the same, and without that the region had no plan)
// Called with y a separate array (v then constant data: dtotal/dx_k = w_k + 2 x_k sin x_k + x_k^2 cos x_k
// + w_{N-1} / 2),
// and with y the global v itself (the second loop reads through the global what the first wrote through
// the pointer; the reads of each thread's neighbours through the global keep those places out of the
// pointer's own parts). Gradients against the analytic ones and forward-mode tangents along unit directions
// (1e-12), at 1 to 4 threads and at -O0. Built with PARAD_COUNT_UPDATES: at 2 and 4 threads, the separate
// array's call makes at least a third of its adjoint updates plainly (those of x and y: 43%; none were).
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc %cflags -fopenmp %s -o %t1 -lm && OMP_NUM_THREADS=3 %t1
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <omp.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { N = 600 };
static double v[N], w[N], other[N];

static double smooth(const double *x, double *y) {
  double total = 0;
#pragma omp parallel reduction(+ : total)
  {
#pragma omp for schedule(static)
    for (int i = 0; i < N; i++) y[i] = x[i] * x[i];
#pragma omp for schedule(static)
    for (int i = 0; i < N; i++) w[i] = (i > 0 ? v[i - 1] : 0) + 2 * v[i] + (i < N - 1 ? v[i + 1] : 0);
#pragma omp for schedule(static)
    for (int i = 0; i < N; i++) total += w[i] * x[i] + y[i] * sin(x[i]) + 0.5 * w[N - 1] * x[i];
  }
  return total;
}

static double apart(const double *x) { return smooth(x, other); }
static double aliased(const double *x) { return smooth(x, v); }

static void constant_v(void) {
  for (int i = 0; i < N; i++) v[i] = cos(0.1 * i);
}

/* The analytic gradients: v fixed (apart), or v_i = x_i^2 (aliased). */
static double want(const double *x, int k, int alias) {
  double own = 2 * x[k] * sin(x[k]) + x[k] * x[k] * cos(x[k]), sum = 0;
  for (int i = 0; i < N; i++) sum += x[i];
  if (!alias) return (k > 0 ? v[k - 1] : 0) + 2 * v[k] + (k < N - 1 ? v[k + 1] : 0) + own + 0.5 * (v[N - 2] + 2 * v[N - 1]);
  double lo = k > 0 ? x[k - 1] : 0, hi = k < N - 1 ? x[k + 1] : 0, last = x[N - 2] * x[N - 2] + 2 * x[N - 1] * x[N - 1];
  double dlast = k == N - 2 ? 2 * x[k] : k == N - 1 ? 4 * x[k] : 0;
  return lo * lo + 2 * x[k] * x[k] + hi * hi + 2 * x[k] * (lo + 2 * x[k] + hi) + own + 0.5 * last + 0.5 * sum * dlast;
}

int main(void) {
  double x[N], g[N], d[N];
  unsigned long long plain0, atomic0, plain1, atomic1;
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.5 * sin(0.3 * i);
  constant_v();
  parad_adjoint_update_counts(&plain0, &atomic0);
  for (int i = 0; i < N; i++) g[i] = 0;
  __parad_autodiff((void *)apart, x, g);
  parad_adjoint_update_counts(&plain1, &atomic1);
  for (int k = 0; k < N; k++) CHECK_CLOSE(g[k], want(x, k, 0), 1e-12);
  for (int k = 0; k < N; k += 37) {
    for (int i = 0; i < N; i++) d[i] = i == k;
    CHECK_CLOSE(__parad_fwddiff((void *)apart, x, d), g[k], 1e-12);
  }
  for (int i = 0; i < N; i++) g[i] = 0;
  __parad_autodiff((void *)aliased, x, g);
  for (int k = 0; k < N; k++) CHECK_CLOSE(g[k], want(x, k, 1), 1e-12);
  for (int k = 0; k < N; k += 37) {
    for (int i = 0; i < N; i++) d[i] = i == k;
    CHECK_CLOSE(__parad_fwddiff((void *)aliased, x, d), g[k], 1e-12);
  }
  unsigned long long updates = plain1 - plain0 + atomic1 - atomic0, atomics = atomic1 - atomic0;
  printf("%d threads, y apart: %llu adjoint updates, %llu atomic\n", omp_get_max_threads(), updates, atomics);
#ifdef COUNTED /* the build counts its updates */
  if (omp_get_max_threads() > 1) {
    CHECK_CLOSE((double)(updates > 0), 1, 0); /* the counts saw the updates */
    if ((updates - atomics) * 3 < updates) printf("FAIL: %llu of %llu adjoint updates were atomic\n", atomics, updates), check_failures++;
  }
#endif
  (void)updates;
  return check_done();
}
