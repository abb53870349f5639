// A task with a firstprivate array of doubles, both modes. clang aligns the accesses of a task's private
// copies as the program's own variables (the array as 16-aligned, though the task's block is not), the
// tangent and adjoint code copies those alignments onto the shadow block's accesses, and the vectoriser
// pairs them into aligned vector loads: the shadow block's private copies must be 64-aligned (they were
// not, and the -O2 derivatives crashed in both modes). f = sum_k w0 sin w1 + w2^2 with
// w = (x_k, x_{k+1}, x_{k+2}) copied into each task. Gradient and tangents against central differences
// (1e-7 relative) and each other (1e-12), at 1, 2 and 4 threads at -O2, at 3 threads at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 6 };

static double f(const double *x) {
  double out[N], s = 0;
#pragma omp parallel
#pragma omp single
  for (int k = 0; k < N; k++) {
    double w[3] = {x[k], x[(k + 1) % N], x[(k + 2) % N]};
#pragma omp task firstprivate(w, k) shared(out)
    out[k] = w[0] * sin(w[1]) + w[2] * w[2];
  }
  for (int k = 0; k < N; k++) s += out[k];
  return s;
}

int main(void) {
  double x[N], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.2 * i - 0.4;
  __parad_autodiff((void *)f, x, g);
  for (int j = 0; j < N; j++) {
    double v[N] = {0};
    v[j] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), g[j], 1e-12);
    CHECK_CLOSE(g[j], fd_component(f, x, N, j, 1e-6), 1e-7);
  }
  return check_done();
}
