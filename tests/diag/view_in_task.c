// A constant pointer chosen against active memory (a view) that a task captures and writes through: still
// refused (the view's constant side would need a shadow of its own for what is written there;
// docs/design.md "Refusals, never guesses"). The same view only read in a task builds
// (tests/omp/task_constants.c), as in a region (tests/omp/captured_views.c). Refused at the choice, with
// the workaround named, and no output file, at -O2 and at -O0 (there at the store of the choice into the
// local the region shares).
// RUN: rm -f %t && not %parad-cc %cflags -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: rm -f %t0 && not %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 2>&1 | FileCheck %s
// RUN: test ! -e %t0
#include <parad.h>

__attribute__((noinline)) static double f(double *x, double *c, int n) {
  // CHECK: view_in_task.c:[[@LINE+1]]:{{[0-9]+}}: error: {{this pointer select|the pointer stored here into memory with derivatives}} needs a shadow for memory that has none: parameter 2 of 'f', passed as constant; pass it with parad_dup and a shadow in function 'f'
  double *p0 = x[0] > 0 ? x : c;
  double t = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task shared(t)
    {
      p0[n - 1] *= x[2];
      t = p0[n - 1] * x[1];
    }
  }
  return t;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, c[4] = {1, 1, 1, 1}, g[4] = {0};
  __parad_autodiff((void *)f, x, g, parad_const, c, 4);
  return 0;
}
