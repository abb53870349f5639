// A block a parallel region allocates (in a `single`, as a parallel prefix sum keeps its threads' block
// sums) and the function frees after the region. The block's shadow was born on the region thread's tape,
// but freed on the function's, which took it for a block the caller passed in: a warning that the
// adjoints of the caller's floats were lost, though the gradient was right and nothing of the caller's was
// freed. A region's blocks are now born on the tapes it forked from too. Found by a probe.
//   prefix(x): y = inclusive prefix sums of x_i^2 (two passes over the threads' blocks), f = sum_i sin(y_i);
//   df/dx_j = 2 x_j sum_{i >= j} cos(y_i), checked to 1e-12, with no message from the runtime; and the
//   tangent (1e-12). At 1, 2 and 3 threads, -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t 2>&1 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t 2>&1 | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t 2>&1 | FileCheck %s
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0 2>&1 | FileCheck %s
// CHECK-NOT: parad runtime
// CHECK: checks passed
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
extern int parad_const;

enum { N = 97 };

static double prefix(const double *x, int n) {
  double *y = malloc(sizeof(double) * n), *sums = NULL;
#pragma omp parallel
  {
    int tid = omp_get_thread_num(), nt = omp_get_num_threads();
#pragma omp single
    sums = calloc(nt + 1, sizeof(double));
    double own = 0;
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) own += x[i] * x[i], y[i] = own;
    sums[tid + 1] = own;
#pragma omp barrier
    double off = 0;
    for (int t = 0; t <= tid; t++) off += sums[t];
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) y[i] += off;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(y[i]);
  free(y);
  free(sums);
  return s;
}

int main(void) {
  double x[N], g[N] = {0}, v[N], y[N], tail = 0, gv = 0;
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.1 * sin(0.7 * i), v[i] = cos(i);
  for (int i = 0; i < N; i++) y[i] = (i ? y[i - 1] : 0) + x[i] * x[i];
  __parad_autodiff((void *)prefix, x, g, parad_const, N);
  for (int j = N - 1; j >= 0; j--) {
    tail += cos(y[j]);
    CHECK_CLOSE(g[j], 2 * x[j] * tail, 1e-12);
    gv += g[j] * v[j];
  }
  CHECK_CLOSE(__parad_fwddiff((void *)prefix, x, v, parad_const, N), gv, 1e-12);
  return check_done();
}
