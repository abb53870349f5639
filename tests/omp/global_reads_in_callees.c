// A parallel loop reading a global array itself and through a helper that takes no pointer (`f(i)` reads
// G[(7 i + 1) % N]). The region's plan for shared adjoints counted only the pointers a call is given, so
// a thread added plainly into the part of G's shadow its own reads covered, while the helper's derivative
// on another thread added atomically into the same elements: lost updates, 0.1-6% off at 2 threads,
// silently. A call that reaches a global with a shadow now leaves the region's shared adjoints atomic.
// Gradient against the analytic one (tolerance 1e-9 relative), 1, 2 and 3 threads, many repetitions so
// that lost updates show.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);

enum { N = 4096, REPS = 60 };
double G[N];

__attribute__((noinline)) static double f(int i) { return sin(G[(i * 7 + 1) % N]); }

__attribute__((noinline)) double loss(const double *x, int reps) {
  for (int i = 0; i < N; i++) G[i] = x[i];
  double L = 0;
  for (int r = 0; r < reps; r++) {
#pragma omp parallel for reduction(+ : L)
    for (int i = 0; i < N; i++) L += G[i] * G[i] + f(i);
  }
  return L;
}

int main(void) {
  static double x[N], dx[N];
  static int read_by[N]; /* how many i read G[j] through f: one each (7 is invertible mod N) */
  for (int i = 0; i < N; i++) x[i] = 0.001 * i, read_by[(i * 7 + 1) % N]++;
  __parad_autodiff((void *)loss, x, dx, REPS);
  for (int j = 0; j < N; j++) CHECK_CLOSE(dx[j], REPS * (2 * x[j] + read_by[j] * cos(x[j])), 1e-9);
  return check_done();
}
