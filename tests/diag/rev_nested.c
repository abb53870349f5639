// A function that computes a gradient itself cannot be differentiated (reverse over reverse, forward over
// reverse): refused where the inner gradient's tape would be.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
double __parad_autodiff(void *, ...);
static double f(double x) { return x * x * x; }
__attribute__((noinline)) static double df(double x) { return __parad_autodiff((void *)f, x); }
int main(void) {
  // CHECK: error: cannot differentiate a function that itself computes a gradient (reverse over reverse or forward over reverse) in function 'df'
  return (int)__parad_autodiff((void *)df, 2.0);
}
