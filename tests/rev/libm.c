// Every function of the derivative table in reverse mode, as libm calls and (with -fno-math-errno) as LLVM
// intrinsics: each partial derivative against forward mode (tolerance 1e-12) and against the analytic
// value for a few (tolerance 1e-11).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc %cflags -fno-math-errno -ffp-contract=on %s -o %t2 && %t2
#include <math.h>
#include "check.h"

typedef struct { double dx, dy; } G2;
double __parad_autodiff(void *, ...);
G2 __parad_autodiff2(void *, ...);
double __parad_fwddiff(void *, ...);

#define UNARY(name) static double f_##name(double x) { return name(x); }
#define BINARY(name) static double f_##name(double x, double y) { return name(x, y); }
UNARY(sin) UNARY(cos) UNARY(tan) UNARY(asin) UNARY(acos) UNARY(atan) UNARY(sinh) UNARY(cosh) UNARY(tanh)
UNARY(asinh) UNARY(atanh) UNARY(exp) UNARY(exp2) UNARY(expm1) UNARY(log) UNARY(log2) UNARY(log10) UNARY(log1p)
UNARY(sqrt) UNARY(cbrt) UNARY(erf) UNARY(erfc) UNARY(fabs) UNARY(floor) UNARY(ceil) UNARY(trunc) UNARY(round)
BINARY(pow) BINARY(atan2) BINARY(hypot) BINARY(fmin) BINARY(fmax) BINARY(fmod) BINARY(copysign)
static double f_acosh(double x) { return acosh(1 + x); }
static double f_fma(double x, double y) { return fma(x, y, x * y) + x * y + 2.5; }
static double f_powi(double x, double y) { return __builtin_powi(x, 5) * y; }

#define CHECK_UNARY(f, x) CHECK_CLOSE(__parad_autodiff((void *)f, x), __parad_fwddiff((void *)f, x, 1.0), 1e-12)
#define CHECK_BINARY(f, x, y)                                                 \
  do {                                                                        \
    G2 g = __parad_autodiff2((void *)f, x, y);                                \
    CHECK_CLOSE(g.dx, __parad_fwddiff((void *)f, x, 1.0, y, 0.0), 1e-12);     \
    CHECK_CLOSE(g.dy, __parad_fwddiff((void *)f, x, 0.0, y, 1.0), 1e-12);     \
  } while (0)

int main(void) {
  double xs[] = {0.3, 0.55, 0.8};
  for (int i = 0; i < 3; i++) {
    double x = xs[i], y = 1.7 - x;
    CHECK_UNARY(f_sin, x), CHECK_UNARY(f_cos, x), CHECK_UNARY(f_tan, x), CHECK_UNARY(f_asin, x);
    CHECK_UNARY(f_acos, x), CHECK_UNARY(f_atan, x), CHECK_UNARY(f_sinh, x), CHECK_UNARY(f_cosh, x);
    CHECK_UNARY(f_tanh, x), CHECK_UNARY(f_asinh, x), CHECK_UNARY(f_atanh, x), CHECK_UNARY(f_exp, x);
    CHECK_UNARY(f_exp2, x), CHECK_UNARY(f_expm1, x), CHECK_UNARY(f_log, x), CHECK_UNARY(f_log2, x);
    CHECK_UNARY(f_log10, x), CHECK_UNARY(f_log1p, x), CHECK_UNARY(f_sqrt, x), CHECK_UNARY(f_cbrt, x);
    CHECK_UNARY(f_erf, x), CHECK_UNARY(f_erfc, x), CHECK_UNARY(f_fabs, x), CHECK_UNARY(f_fabs, -x);
    CHECK_UNARY(f_floor, x), CHECK_UNARY(f_ceil, x), CHECK_UNARY(f_trunc, x), CHECK_UNARY(f_round, x);
    CHECK_UNARY(f_acosh, x);
    CHECK_BINARY(f_pow, x, y);
    CHECK_BINARY(f_atan2, x, y);
    CHECK_BINARY(f_hypot, x, y);
    CHECK_BINARY(f_fmin, x, y);
    CHECK_BINARY(f_fmax, x, y);
    CHECK_BINARY(f_fmod, x + 2, y);
    CHECK_BINARY(f_copysign, x, -y);
    CHECK_BINARY(f_fma, x, y);
    CHECK_BINARY(f_powi, x, y);
    CHECK_CLOSE(__parad_autodiff((void *)f_tan, x), 1 / (cos(x) * cos(x)), 1e-11);
    G2 p = __parad_autodiff2((void *)f_pow, x, y);
    CHECK_CLOSE(p.dx, y * pow(x, y - 1), 1e-11);
    CHECK_CLOSE(p.dy, pow(x, y) * log(x), 1e-11);
  }
  return check_done();
}
