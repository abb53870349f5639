// A block that reads a gathered input (x[7i mod n], which the reverse sweep reads back from the region's
// copy) and records other values beside it (tanh and tan of it), followed by an inner loop whose blocks
// record nothing of their own but read v from the record below theirs. A copied load is left out of its
// block's record where it comes from the copy (rev_values.c plan_copied_last), but not in a block that
// another follows: the follower finds its predecessor's slots from the end of the predecessor's record.
// Shrunk from fuzz seed omp 1167, whose gradient was wrong when the follower recorded nothing of its own
// (24 of 24 checks here fail without the fix). f(x) = sum_i (1 + i/10) h_i, h_i = (0.5 + (n-1)/100) /
// (1 + v_i^2), v_i = tan(tanh(sin(x[7i mod n])) / 2). Gradient against tangents (1e-12) and central
// differences (1e-6), at 1, 2 and 4 threads at -O2 and 2 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 12, M = 40 };

/* h is the program's own heap block (calloc, then realloc), so that the optimiser keeps the inner loop's
 * stores: the loop's blocks then read v from the record of the block before them */
__attribute__((noinline)) static double f(const double *x, int n) {
  double *h = calloc(M + 2, sizeof(double));
  for (int i = 0; i < 2; i++) h[i] = 0.5;
  h = realloc(h, (M + 3) * sizeof(double));
  h[M + 2] = 0.5;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < M; i++) {
    double v = tan(tanh(sin(x[7 * i % n])) / 2);
    for (int k = 0; k < n; k++) h[i + 1] = (0.5 + 0.01 * k) / (1 + v * v);
  }
  double s = 0;
  for (int i = 0; i < M; i++) s += (1 + 0.1 * i) * h[i + 1];
  free(h);
  return s;
}

static double objective(const double *x) { return f(x, N); }

int main(void) {
  double x[N], g[N] = {0}, v[N];
  for (int j = 0; j < N; j++) x[j] = 0.3 + 0.1 * j;
  __parad_autodiff((void *)f, x, g, parad_const, N);
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) v[i] = i == j;
    CHECK_CLOSE(g[j], __parad_fwddiff((void *)f, x, v, parad_const, N), 1e-12);
    CHECK_CLOSE(g[j], fd_component(objective, x, N, j, 1e-5), 1e-6);
  }
  return check_done();
}
