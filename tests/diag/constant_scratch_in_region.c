// A scratch buffer passed as constant that a parallel region writes values with derivatives into: refused
// where the region takes the pointer (its captures have derivatives), naming the parameter, in both modes
// and at -O0 as at -O2 (the store into the captures has no line of its own: it was reported at the line
// before the region).
// RUN: rm -f %t && not %parad-cc %cflags -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc %cflags -fopenmp -DFORWARD %s -o %t 2>&1 | FileCheck %s
// RUN: not %parad-cc -O0 -fopenmp -I%S/../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

double f(double *x, double *scratch, int n) {
  double s = 0;
  // CHECK: constant_scratch_in_region.c:[[@LINE+1]]:{{[0-9]+}}: error: the pointer stored here into memory with derivatives needs a shadow for memory that has none: parameter 2 of 'f', passed as constant; pass it with parad_dup and a shadow in function 'f'
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    scratch[i] = x[i] * x[i];
    s += scratch[i] * x[i];
  }
  return s;
}

int main(void) {
  double x[10], dx[10] = {0}, scratch[10];
  for (int i = 0; i < 10; i++) x[i] = i;
#ifdef FORWARD
  __parad_fwddiff((void *)f, x, dx, parad_const, scratch, 10);
#else
  __parad_autodiff((void *)f, x, dx, parad_const, scratch, 10);
#endif
  return 0;
}
