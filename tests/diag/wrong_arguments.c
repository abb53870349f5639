// Calling-convention mistakes: too few, too many, a type that does not fit (the types named), a shadow
// left out, a marker on an integer, a reverse-mode marker in forward mode, a width that is not a
// constant. One message per call.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
double __parad_fwddiff(void *, ...);
static double f(double *x, int n) { return x[0] * n; }
static double g(double x) { return x; }
typedef struct { double a, b; } Two;
Two __parad_fwddiff2(void *, ...);

int main(int argc, char **argv) {
  double x = 1, dx = 1;
  double s = 0;
  // CHECK: wrong_arguments.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: too few arguments: parameter #1 is duplicated but its shadow is missing
  s += __parad_fwddiff((void *)f, &x);
  // CHECK: wrong_arguments.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: too many arguments for 'f' (it has 2 parameters)
  s += __parad_fwddiff((void *)f, &x, &dx, 3, 4);
  // CHECK: wrong_arguments.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: the argument for parameter #1 does not have the parameter's type (double given, 'f' takes pointer)
  s += __parad_fwddiff((void *)f, 1.5, &dx, 3);
  // CHECK: wrong_arguments.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: the shadow of parameter #1 does not have the parameter's type (double given, 'f' takes pointer): a duplicated parameter is followed by its shadow; was the shadow left out, or is the parameter meant to be parad_const?
  s += __parad_fwddiff((void *)f, &x, 2.0, 3);
  // CHECK: wrong_arguments.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: parad_dup given for parameter #2 of 'f', which is an integer and has no derivative
  s += __parad_fwddiff((void *)f, &x, &dx, parad_dup, 3, 4);
  // CHECK: wrong_arguments.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: parad_out (an active scalar whose gradient is returned) is a reverse-mode marker; use parad_dup for parameter #1
  s += __parad_fwddiff((void *)g, parad_out, x);
  // CHECK: wrong_arguments.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff2: 'parad_width' must be followed by a constant width between 1 and 64
  Two t = __parad_fwddiff2((void *)g, parad_width, argc, x, 1.0, 0.0);
  // CHECK: wrong_arguments.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: too few arguments: no value for parameter #1
  s += __parad_fwddiff((void *)g);
  return (int)(s + t.a);
}
