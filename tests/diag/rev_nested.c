// A function that computes a gradient itself cannot be differentiated in reverse mode: refused at the inner
// request (forward mode over it works: enzyme/hessian_vector.c).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
double __parad_autodiff(void *, ...);
static double f(double x) { return x * x * x; }
__attribute__((noinline)) static double df(double x) { return __parad_autodiff((void *)f, x); }
int main(void) {
  // CHECK: rev_nested.c:8:{{[0-9]+}}: error: __parad_autodiff of 'df': reverse mode over a reverse-mode derivative computed here is not supported yet
  return (int)__parad_autodiff((void *)df, 2.0);
}
