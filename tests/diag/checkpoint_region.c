// A checkpointed loop's step may allocate and free memory and run parallel regions and tasks, but a
// parallel region or a task of a step that allocates or frees is refused where it is (the runtime tells
// the step's blocks apart by the thread that runs the step), at -O2 and -O0, and no output is written.
// RUN: rm -f %t && not %parad-cc %cflags -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -fopenmp -I%S/../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
#include <stdlib.h>

double grow(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    __parad_checkpoint_loop();
    // CHECK-DAG: checkpoint_region.c:[[@LINE+1]]:{{[0-9]+}}: error: a parallel region that allocates or frees memory inside a loop checkpointed with __parad_checkpoint_loop() is not supported yet in function 'grow'
#pragma omp parallel
    {
      double *mine = malloc(sizeof(double) * n);
#pragma omp for
      for (int i = 0; i < n; i++) mine[i] = u[i] * u[i];
#pragma omp for
      for (int i = 0; i < n; i++) u[i] = 0.5 * mine[i] + 0.1;
      free(mine);
    }
  }
  return u[0];
}

double spawn(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    __parad_checkpoint_loop();
#pragma omp parallel
#pragma omp single
    // CHECK-DAG: checkpoint_region.c:[[@LINE+1]]:{{[0-9]+}}: error: an OpenMP task that allocates or frees memory inside a loop checkpointed with __parad_checkpoint_loop() is not supported yet in function
#pragma omp task shared(u, n)
    {
      double *mine = malloc(sizeof(double) * n);
      for (int i = 0; i < n; i++) mine[i] = u[i] * u[i];
      for (int i = 0; i < n; i++) u[i] = 0.5 * mine[i] + 0.1;
      free(mine);
    }
  }
  return u[0];
}

int main(void) {
  double u[8] = {1}, du[8] = {0};
  __parad_autodiff((void *)grow, u, du, 8, 10);
  __parad_autodiff((void *)spawn, u, du, 8, 10);
  return 0;
}
