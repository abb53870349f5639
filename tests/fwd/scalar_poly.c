// Scalar forward mode: a polynomial and a rational function of two variables, checked against their
// analytic derivatives (tolerance 1e-12: rounding only).
// RUN: %parad-cc %cflags %s -o %t && %t
#include "check.h"

double __parad_fwddiff(void *, ...);

static double poly(double x) { return 3 * x * x * x - 2 * x * x + x - 7; }
static double rational(double x, double y) { return x * y + x / y - y / (1 + x * x); }

int main(void) {
  for (double x = -2; x <= 2; x += 0.5) {
    double d = __parad_fwddiff((void *)poly, x, 1.0);
    CHECK_CLOSE(d, 9 * x * x - 4 * x + 1, 1e-12);
    /* tangent scales linearly with the seed */
    CHECK_CLOSE(__parad_fwddiff((void *)poly, x, 2.5), 2.5 * (9 * x * x - 4 * x + 1), 1e-12);
  }
  double x = 1.3, y = -0.7;
  double dx = __parad_fwddiff((void *)rational, parad_dup, x, 1.0, parad_dup, y, 0.0);
  double dy = __parad_fwddiff((void *)rational, x, 0.0, y, 1.0);
  double q = 1 + x * x;
  CHECK_CLOSE(dx, y + 1 / y + y * 2 * x / (q * q), 1e-12);
  CHECK_CLOSE(dy, x - x / (y * y) - 1 / q, 1e-12);
  /* parad_const: no tangent is passed for y */
  CHECK_CLOSE(__parad_fwddiff((void *)rational, x, 1.0, parad_const, y), dx, 1e-12);
  return check_done();
}
