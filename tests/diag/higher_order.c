// A derivative request inside a function being differentiated (second derivatives) is refused.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
static double f(double x) { return x * x * x; }
__attribute__((noinline)) static double df(double x) {
  // CHECK: higher_order.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a derivative request (higher-order derivatives are not supported) in function 'df'
  return __parad_fwddiff((void *)f, x, 1.0);
}
int main(void) { return (int)__parad_fwddiff((void *)df, 2.0, 1.0); }
