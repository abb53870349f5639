// Dependences on array sections and taskwait with depend clauses, both modes: an in-place (Gauss-Seidel)
// smoothing of u over time steps in blocks, one task per block and step, each block's task after its
// left neighbour's of the same step and its right neighbour's of the step before (depend on the blocks'
// sections); then, block by block, a taskwait depend(in: block) before the block is read into the result:
//   u_i <- (u_{i-1} + 2 u_i + u_{i+1} sin(u_i)) / 4 (i from 0 up, zero outside)
//   f(x) = sum_i (1 + i/20) u_i^2 after STEPS steps from u = x.
// Gradients against tangents (1e-12) and central differences (1e-7), at 1, 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { B = 6, NB = 5, N = B * NB, STEPS = 4 };

static void smooth(double *u, int lo, int hi) {
  for (int i = lo; i < hi; i++) {
    double l = i > 0 ? u[i - 1] : 0, r = i + 1 < N ? u[i + 1] : 0;
    u[i] = (l + 2 * u[i] + r * sin(u[i])) / 4;
  }
}

static double f(const double *x) {
  double u[N], s = 0;
  for (int i = 0; i < N; i++) u[i] = x[i];
#pragma omp parallel
#pragma omp single
  {
    for (int t = 0; t < STEPS; t++)
      for (int b = 0; b < NB; b++) {
        int left = b > 0 ? b - 1 : b, right = b + 1 < NB ? b + 1 : b;
#pragma omp task firstprivate(b) shared(u) depend(inout : u[b * B : B]) depend(in : u[left * B : B], u[right * B : B])
        smooth(u, b * B, b * B + B);
      }
    for (int b = 0; b < NB; b++) {
#pragma omp taskwait depend(in : u[b * B : B])
      for (int i = b * B; i < b * B + B; i++) s += (1 + i / 20.0) * u[i] * u[i];
    }
  }
  return s;
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.5 * sin(0.9 * i) + 0.2;
  CHECK_GRADIENT(f, x, N, 1e-12, 1e-6, 1e-7);
  return check_done();
}
