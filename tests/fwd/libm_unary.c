// Every one-argument libm function in the derivative table, as a double and as a float, against its
// analytic derivative (tolerance 1e-11 for double, 1e-5 for float).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
float __parad_fwddiff_f(void *, ...);

#define UNARY(name, deriv)                                                           \
  static double f_##name(double x) { return name(x); }                               \
  static float g_##name(float x) { return name##f(x); }                              \
  static void check_##name(double x) {                                               \
    CHECK_CLOSE(__parad_fwddiff((void *)f_##name, x, 1.0), (deriv), 1e-11);          \
    CHECK_CLOSE(__parad_fwddiff_f((void *)g_##name, (float)x, 1.0f), (deriv), 1e-5); \
  }

UNARY(sin, cos(x))
UNARY(cos, -sin(x))
UNARY(tan, 1 / (cos(x) * cos(x)))
UNARY(asin, 1 / sqrt(1 - x * x))
UNARY(acos, -1 / sqrt(1 - x * x))
UNARY(atan, 1 / (1 + x * x))
UNARY(sinh, cosh(x))
UNARY(cosh, sinh(x))
UNARY(tanh, 1 / (cosh(x) * cosh(x)))
UNARY(asinh, 1 / sqrt(x * x + 1))
UNARY(atanh, 1 / (1 - x * x))
UNARY(exp, exp(x))
UNARY(exp2, exp2(x) * log(2.0))
UNARY(expm1, exp(x))
UNARY(log, 1 / x)
UNARY(log2, 1 / (x * log(2.0)))
UNARY(log10, 1 / (x * log(10.0)))
UNARY(log1p, 1 / (1 + x))
UNARY(sqrt, 0.5 / sqrt(x))
UNARY(cbrt, 1 / (3 * cbrt(x) * cbrt(x)))
UNARY(erf, 2 / sqrt(M_PI) * exp(-x * x))
UNARY(erfc, -2 / sqrt(M_PI) * exp(-x * x))
UNARY(fabs, x < 0 ? -1.0 : 1.0)
UNARY(floor, 0.0)
UNARY(ceil, 0.0)
UNARY(trunc, 0.0)
UNARY(round, 0.0)

static double f_acosh(double x) { return acosh(x); }

int main(void) {
  double xs[] = {0.3, 0.55, 0.8};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    check_sin(x), check_cos(x), check_tan(x), check_asin(x), check_acos(x), check_atan(x);
    check_sinh(x), check_cosh(x), check_tanh(x), check_asinh(x), check_atanh(x);
    check_exp(x), check_exp2(x), check_expm1(x), check_log(x), check_log2(x), check_log10(x);
    check_log1p(x), check_sqrt(x), check_cbrt(x), check_erf(x), check_erfc(x);
    check_fabs(x), check_fabs(-x), check_floor(x), check_ceil(x), check_trunc(x), check_round(x);
    CHECK_CLOSE(__parad_fwddiff((void *)f_acosh, 1 + x, 1.0), 1 / sqrt((1 + x) * (1 + x) - 1), 1e-11);
  }
  return check_done();
}
