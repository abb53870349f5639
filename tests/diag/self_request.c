// A function that asks for the derivative of itself (here through a helper) cannot be differentiated:
// its derivative would need itself first. Refused at both requests.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
static double g(double x);
__attribute__((noinline)) static double f(double x) {
  // CHECK-DAG: self_request.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a function that asks, directly or through the functions it calls, for a derivative of itself in function 'f'
  return x * __parad_fwddiff((void *)g, x, 1.0);
}
__attribute__((noinline)) static double g(double x) { return f(x) + x; }
int main(void) {
  // CHECK-DAG: self_request.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a function that asks, directly or through the functions it calls, for a derivative of itself in function 'main'
  return (int)__parad_fwddiff((void *)f, 2.0, 1.0);
}
