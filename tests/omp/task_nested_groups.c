// Task groups inside tasks, both modes: each outer task (one per block) keeps a local array that its own
// child tasks fill inside a taskgroup, then combines it; the children of a block depend on each other
// through the parent's local (depend on the local's elements), and the outer tasks are joined by an outer
// taskgroup. Nested task groups, a task's locals shared with its children, and dependences between
// siblings created by a task:
//   block b: w_k = x_{bK+k}^2 + (k > 0 ? w_{k-1} / 2 : 0) (in order), r_b = sum_k sin(w_k);
//   f(x) = sum_b r_b^2.
// Gradients against tangents (1e-12) and central differences (1e-7), at 1, 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { K = 5, NB = 4, N = K * NB };

static double f(const double *x) {
  double r[NB], s = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup
    for (int b = 0; b < NB; b++) {
#pragma omp task firstprivate(b) shared(r)
      {
        double w[K];
#pragma omp taskgroup
        for (int k = 0; k < K; k++) {
#pragma omp task firstprivate(k) shared(w) depend(out : w[k]) depend(in : w[k > 0 ? k - 1 : 0])
          w[k] = x[b * K + k] * x[b * K + k] + (k > 0 ? w[k - 1] / 2 : 0);
        }
        double t = 0;
        for (int k = 0; k < K; k++) t += sin(w[k]);
        r[b] = t;
      }
    }
    for (int b = 0; b < NB; b++) s += r[b] * r[b];
  }
  return s;
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.07 * i - 0.6;
  CHECK_GRADIENT(f, x, N, 1e-12, 1e-6, 1e-7);
  return check_done();
}
