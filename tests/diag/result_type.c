// The declared result of the call must be able to hold the tangent(s): an integer result has none, and
// two tangents do not fit in one double. (A void function's call declared returning a value gets zero, as
// with Enzyme: tests/enzyme/decl_void_result.c.)
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
double __parad_fwddiff(void *, ...);
static int count(double x) { return x > 0; }
static double f(double x) { return x * x; }

int main(void) {
  // CHECK: result_type.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: 'count' returns an integer, which has no tangent to return
  double b = __parad_fwddiff((void *)count, 1.0, 1.0);
  // CHECK: result_type.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: the call's result type cannot hold 2 tangents of type double: declare it as returning a struct of that many double
  double c = __parad_fwddiff((void *)f, parad_width, 2, 1.0, 1.0, 0.0);
  return (int)(b + c);
}
