// A region's read at a clamped index made only under a condition (found by the OpenMP fuzzer, seed 14915):
// in the branch where i >= 3 and i is odd, clang knows i - 1 is positive, drops the clamp's lower bound
// and widens the index as nonnegative. The forward sweep bounded such a read by the corners of the run
// (reverse/rev_monotone.c) as if it ran in every iteration: at i = 0 the widened index wrapped to 2^32 - 1,
// the read's range spanned 32 GB, met the writes of another object and stopped the program ("a parallel
// region wrote, through one pointer, memory that it read through another"). A read bounded by corners must
// now run in every iteration of the run; this one is noted read by read.
//   f(x): a_j = sin(x_j) (a local array), y_i = x_i^2 a_0 where the branch is not taken, else
//   y_i = cos(a_{clamp(i - 1, 0, 6)}) x_i (taken only where i >= 3 is odd), J = sum_i y_i
// Run with m = 2 (the branch never taken: the fuzzer's case) and m = 8 (taken at 3, 5, 7). Gradients
// against forward-mode tangents along every unit direction (1e-12) and central differences (1e-6), at
// 1 to 4 threads and at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 8 };
static int m = 2;

__attribute__((noinline)) static double f(const double *x) {
  double a[7], y[N] = {0}, J = 0;
  for (int j = 0; j < 7; j++) a[j] = sin(x[j]);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < m; i++) {
    if (i % 2 == 0 || i < 3)
      y[i] = x[i] * x[i] * a[0];
    else
      y[i] = cos(a[(i - 1) < 0 ? 0 : ((i - 1) > 6 ? 6 : (i - 1))]) * x[i];
  }
  for (int i = 0; i < N; i++) J += y[i];
  return J;
}

int main(void) {
  for (int round = 0; round < 2; round++, m = N) {
    double x[N], g[N] = {0}, d[N], xp[N], xm[N], h = 1e-6;
    for (int i = 0; i < N; i++) x[i] = 0.3 + 0.1 * i;
    __parad_autodiff((void *)f, x, g);
    for (int k = 0; k < N; k++) {
      for (int i = 0; i < N; i++) d[i] = i == k, xp[i] = x[i] + h * d[i], xm[i] = x[i] - h * d[i];
      CHECK_CLOSE(g[k], __parad_fwddiff((void *)f, x, d), 1e-12);
      CHECK_CLOSE(g[k], (f(xp) - f(xm)) / (2 * h), 1e-6);
    }
  }
  return check_done();
}
