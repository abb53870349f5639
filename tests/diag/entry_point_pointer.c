// An entry point taken as a function pointer (a wrapper library keeping __parad_autodiff in a variable or a
// table) and called through it: Parad finds requests in direct calls only, and the program failed at the link
// with "undefined reference to `__parad_autodiff'" and no place. Refused where the pointer is taken, with the
// way round, at -O2 and -O0, with no output file.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: not %parad-cc -O0 %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

static double f(const double *x) { return x[0] * x[1]; }

typedef double (*Entry)(void *, ...);

int main(void) {
  double x[2] = {1, 2}, d[2] = {0};
  // CHECK: entry_point_pointer.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff is taken here as a function pointer: Parad finds the derivatives a program asks for in direct calls of its entry points only; call __parad_autodiff itself, where the function to differentiate is passed
  Entry ad = __parad_autodiff;
  ad((void *)f, x, d);
  return (int)d[0];
}
