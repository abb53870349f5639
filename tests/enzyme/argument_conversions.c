// Arguments of a request converted to the parameters' types as C converts them: an int for a _Bool
// parameter is true when nonzero (2 was truncated to false: the other branch's derivative, no message); a
// long double for a double parameter (an invalid module: "DestTy too small for FPExt"); a float for a
// double. A marker kept in a local first (`int dup = enzyme_dup`) is a marker (it was taken for the
// argument of parameter #1 and refused). Gradients and tangents against the analytic ones (1e-12), at -O2
// (%cflags) and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <stdbool.h>

#include "check.h"

int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double f(double x, bool squared) { return squared ? x * x : x; }
static double cube(double x) { return x * x * x; }
static double sum_squares(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

int main(void) {
  int flag = 2;
  CHECK_CLOSE(__enzyme_autodiff((void *)f, 3.0, enzyme_const, flag), 6, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)f, 3.0, 1.0, enzyme_const, flag), 6, 1e-12);
  long double lx = 0.8L;
  float fx = 0.5f;
  CHECK_CLOSE(__enzyme_autodiff((void *)cube, lx), 3 * 0.64, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff((void *)cube, fx), 0.75, 1e-12);
  int dup = enzyme_dup, cst = enzyme_const;
  double x[2] = {1, 2}, dx[2] = {0};
  __enzyme_autodiff((void *)sum_squares, dup, x, dx, cst, 2);
  CHECK_CLOSE(dx[0], 2, 1e-12);
  CHECK_CLOSE(dx[1], 4, 1e-12);
  return check_done();
}
