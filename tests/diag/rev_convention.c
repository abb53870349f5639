// Reverse-mode calling-convention mistakes: a duplicated scalar (its gradient is returned instead), an
// active pointer marked parad_out, and split mode without its tape.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
double __parad_autodiff(void *, ...);
double __parad_reverse(void *, ...);
static double f(double x, double *p) { return x * *p; }
static double g(double x, double y) { return x * y; }

int main(void) {
  double x = 1, p = 2, dp = 0;
  double s = 0;
  // CHECK: rev_convention.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff: parad_dup given for parameter #1 of 'f', a scalar: in reverse mode its gradient is returned (parad_out)
  s += __parad_autodiff((void *)f, parad_dup, x, 1.0, &p, &dp);
  // CHECK: rev_convention.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff: parad_out given for parameter #2 of 'f', a pointer: pass it with parad_dup and a shadow buffer that receives its gradient
  s += __parad_autodiff((void *)f, x, parad_out, &p);
  // CHECK: rev_convention.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_reverse: the tape is missing: end the arguments with the tape __parad_augmentfwd returned (after parad_tape, or alone)
  s += __parad_reverse((void *)g, x, 2.0, 1.0);
  return (int)s;
}
