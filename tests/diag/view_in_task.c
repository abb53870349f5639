// A constant pointer chosen against active memory (a view) that a task captures: still refused (its
// task's shareds block would carry the view to the task's function, which is derived with a fixed pattern
// that cannot tell it to compare addresses; docs/design.md "Refusals, never guesses"). The same view read
// in a region, or passed to a function, builds (tests/omp/captured_views.c). Refused at the choice, with
// the workaround named, and no output file.
// RUN: rm -f %t && not %parad-cc %cflags -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

__attribute__((noinline)) static double f(const double *x, const double *c, int n) {
  // CHECK: view_in_task.c:[[@LINE+1]]:{{[0-9]+}}: error: this pointer select needs a shadow for memory that has none: a parameter passed as constant; pass it with parad_dup and a shadow in function 'f'
  const double *p0 = x[0] > 0 ? x : c;
  double t = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task shared(t)
    t = p0[n - 1] * x[2];
  }
  return t;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, c[4] = {1, 1, 1, 1}, g[4] = {0};
  __parad_autodiff((void *)f, x, g, parad_const, c, 4);
  return 0;
}
