// Loops whose trip count depends on the data, left by break or by return from inside: the tape records
// each iteration and the path out. Newton's iteration for the cube root against 1/(3 a^(2/3)) (tolerance
// 1e-10), an early-return search against analytic gradients and forward tangents (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
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

__attribute__((noinline)) static double first_above(const double *x, int n, double limit) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i];
    if (s > limit) return s * limit;
  }
  return -s;
}

int main(void) {
  for (double a = 0.5; a < 30; a *= 2.3) CHECK_CLOSE(__parad_autodiff((void *)newton_cbrt, a), 1 / (3 * cbrt(a) * cbrt(a)), 1e-10);
  double x[6] = {0.5, 1.0, 0.3, 2.0, 0.1, 0.7};
  for (double limit = 1; limit < 20; limit *= 3) {
    double dx[6] = {0}, e[6];
    double dlimit = __parad_autodiff((void *)first_above, x, dx, parad_const, 6, limit);
    for (int k = 0; k < 6; k++) {
      for (int i = 0; i < 6; i++) e[i] = i == k;
      CHECK_CLOSE(dx[k], __parad_fwddiff((void *)first_above, x, e, parad_const, 6, limit, 0.0), 1e-12);
    }
    CHECK_CLOSE(dlimit, __parad_fwddiff((void *)first_above, x, (double[6]){0}, parad_const, 6, limit, 1.0), 1e-12);
  }
  return check_done();
}
