// Loops whose trip count depends on the data: a Newton iteration for the cube root that stops when the
// step is small (break), and a search that returns early from inside a loop. The Newton result's
// tangent must match the derivative of the cube root (tolerance 1e-10: converged iterates).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double newton_cbrt(double a) {
  double x = a > 1 ? a : 1;
  for (int it = 0; it < 100; it++) {
    double step = (x * x * x - a) / (3 * x * x);
    x -= step;
    if (fabs(step) < 1e-15 * fabs(x)) break;
  }
  return x;
}

/* The first partial sum of x_i^2 that exceeds limit, scaled; early return from the loop. */
__attribute__((noinline)) static double first_above(const double *x, int n, double limit) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i];
    if (s > limit) return s * limit;
  }
  return -s;
}

int main(void) {
  for (double a = 0.5; a < 30; a *= 2.3) {
    double d = __parad_fwddiff((void *)newton_cbrt, a, 1.0);
    CHECK_CLOSE(d, 1 / (3 * cbrt(a) * cbrt(a)), 1e-10);
  }
  double x[6] = {0.5, 1.0, 0.3, 2.0, 0.1, 0.7}, dx[6];
  for (int k = 0; k < 6; k++) {
    for (int i = 0; i < 6; i++) dx[i] = i == k;
    /* s passes 1.5 at i = 3 (0.25 + 1 + 0.09 + 4): result = s * limit; d/dlimit = s */
    double d = __parad_fwddiff((void *)first_above, x, dx, parad_const, 6, 1.5, 0.0);
    CHECK_CLOSE(d, k <= 3 ? 2 * x[k] * 1.5 : 0.0, 1e-12);
  }
  CHECK_CLOSE(__parad_fwddiff((void *)first_above, x, dx, parad_const, 6, 1.5, 1.0), 5.34, 1e-12);
  /* limit never reached: the loop runs to the end */
  for (int i = 0; i < 6; i++) dx[i] = 1;
  CHECK_CLOSE(__parad_fwddiff((void *)first_above, x, dx, parad_const, 6, 100.0, 0.0), -2 * 4.6, 1e-12);
  return check_done();
}
