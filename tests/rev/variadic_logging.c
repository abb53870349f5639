// A variadic helper of the program's own given active floats by value only (a logging function: its
// pointer arguments are constant format strings, its result an int) carries no derivative and is called as
// it is; it was refused as a variadic function with active arguments. One given a pointer to active memory
// is still refused (diag/variadic.c). f(x) = (x0 x1)^2 + sin(x1), logged on each call (the log is on when
// the program is given an argument: its text checked too): analytic gradient (1e-14) and forward tangents
// (1e-14), -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t && %t log 2>&1 | FileCheck %s
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static int verbose;

__attribute__((noinline)) static int log_msg(int level, const char *fmt, ...) {
  if (level > verbose) return 0;
  va_list ap;
  va_start(ap, fmt);
  int n = vfprintf(stderr, fmt, ap);
  va_end(ap);
  return n;
}

__attribute__((noinline)) static double f(const double *x) {
  double s = x[0] * x[1];
  // CHECK: s = 3, x1 = 2
  log_msg(1, "s = %g, x1 = %g\n", s, x[1]);
  return s * s + sin(x[1]);
}

int main(int argc, char **argv) {
  verbose = argc > 1;
  double x[2] = {1.5, 2.0}, g[2] = {0}, e0[2] = {1, 0}, e1[2] = {0, 1};
  __parad_autodiff((void *)f, x, g);
  CHECK_CLOSE(g[0], 2 * 3.0 * 2.0, 1e-14);
  CHECK_CLOSE(g[1], 2 * 3.0 * 1.5 + cos(2.0), 1e-14);
  CHECK_CLOSE(__parad_fwddiff((void *)f, x, e0), g[0], 1e-14);
  CHECK_CLOSE(__parad_fwddiff((void *)f, x, e1), g[1], 1e-14);
  return check_done();
}
