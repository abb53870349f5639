// A single construct that only creates tasks, through an array local to the construct: the tasks'
// adjoints run as tasks and add into the array's shadow, which the construct's reverse sweep must not give
// back before they are done (it once did: at 2 threads the gradient read freed memory). Gradient against
// central differences (1e-6), at 1, 2 and 4 threads, and under valgrind at 2 threads.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: OMP_NUM_THREADS=2 valgrind -q --error-exitcode=9 %t > /dev/null
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);

enum { N = 8 };

static void work(const double *x, double *res) {
#pragma omp parallel
#pragma omp single
  {
    double tmp[N];
    for (int k = 0; k < N; k++) {
#pragma omp task firstprivate(k) shared(tmp) depend(out : tmp[k])
      tmp[k] = sin(x[k]) * x[(k + 1) % N];
    }
    for (int k = 0; k < N; k++) {
#pragma omp task firstprivate(k) shared(tmp, res) depend(in : tmp[k], tmp[(k + 1) % N]) depend(out : res[k])
      res[k] = tmp[k] * tmp[(k + 1) % N];
    }
#pragma omp taskwait
  }
}

static double f(const double *x) {
  double res[N], s = 0;
  work(x, res);
  for (int k = 0; k < N; k++) s += res[k];
  return s;
}

int main(void) {
  double x[N], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.3 * i - 0.5;
  __parad_autodiff((void *)f, x, g);
  for (int j = 0; j < N; j++) {
    CHECK_CLOSE(g[j], fd_component(f, x, N, j, 1e-6), 1e-6);
  }
  return check_done();
}
