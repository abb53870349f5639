// The declared result of the call must be able to hold the tangent(s): an integer result has none, and
// two tangents do not fit in one double, nor four float tangents in a struct of four doubles (returned
// through memory: it was not checked, and the floats were read as doubles), nor in a struct of two doubles
// of their size. (A void function's call declared returning a value gets zero, as with Enzyme:
// tests/enzyme/decl_void_result.c.)
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
double __parad_fwddiff(void *, ...);
typedef struct { double d[4]; } Four;
typedef struct { double d[2]; } TwoDoubles;
Four __parad_fwddiff4(void *, ...) __asm__("__parad_fwddiff");
TwoDoubles __parad_fwddiff2(void *, ...) __asm__("__parad_fwddiff");
static int count(double x) { return x > 0; }
static double f(double x) { return x * x; }
static float g(const float *x) { return x[0] * x[0] * x[1]; }

int main(void) {
  // CHECK: result_type.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: 'count' returns an integer, which has no tangent to return
  double b = __parad_fwddiff((void *)count, 1.0, 1.0);
  // CHECK: result_type.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: the call's result type cannot hold 2 tangents of type double: declare it as returning a struct of that many double
  double c = __parad_fwddiff((void *)f, parad_width, 2, 1.0, 1.0, 0.0);
  float x[2] = {3, 2}, e0[2] = {1, 0}, e1[2] = {0, 1};
  // CHECK: result_type.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: the call's result type cannot hold 4 tangents of type float: declare it as returning a struct of that many float
  Four d = __parad_fwddiff4((void *)g, parad_width, 4, x, e0, e1, e0, e1);
  // CHECK: result_type.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: the call's result type cannot hold 4 tangents of type float: declare it as returning a struct of that many float
  TwoDoubles e = __parad_fwddiff2((void *)g, parad_width, 4, x, e0, e1, e0, e1);
  return (int)(b + c + d.d[0] + e.d[0]);
}
