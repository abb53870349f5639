// long double (x86 80-bit extended) arithmetic with sinl, expl, logl and sqrtl, as a scalar argument
// with a long double tangent, and through a duplicated long double array. The results are compared, in
// double, with the analytic derivatives (tolerance 1e-12), and for the scalar function also in long
// double, relative error below 1e-16 (the extended computation is good to a few 1e-18; tangents computed
// through double would typically miss this).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

long double __parad_fwddiff_ld(void *, ...);

__attribute__((noinline)) static long double f(long double x) {
  return sinl(x) * expl(0.5L * x) + logl(1 + x * x) / sqrtl(x + 2);
}

static long double df(long double x) {
  long double q = logl(1 + x * x), r = sqrtl(x + 2);
  return cosl(x) * expl(0.5L * x) + 0.5L * sinl(x) * expl(0.5L * x) + (2 * x / (1 + x * x)) / r - q / (2 * r * r * r);
}

__attribute__((noinline)) static long double norm_like(long double *v, int n) {
  long double s = 0;
  for (int i = 0; i < n; i++) {
    s += v[i] * v[i] * (1 + 0.1L * i);
    v[i] = expl(v[i]); /* written back: the shadow must become exp(v) dv */
  }
  return sqrtl(s);
}

int main(void) {
  for (long double x = -1.5L; x < 3; x += 0.55L) {
    long double d = __parad_fwddiff_ld((void *)f, x, 1.0L);
    CHECK_CLOSE((double)d, (double)df(x), 1e-12);
    CHECK_CLOSE((double)((d - df(x)) / df(x)), 0.0, 1e-16);
    long double d2 = __parad_fwddiff_ld((void *)f, x, -2.5L);
    CHECK_CLOSE((double)d2, (double)(-2.5L * df(x)), 1e-12);
  }
  long double v[5] = {0.3L, -1.2L, 0.8L, 2.0L, -0.1L}, dv[5], v0[5], dv0[5];
  long double s = 0, ds = 0;
  for (int i = 0; i < 5; i++) {
    v0[i] = v[i], dv0[i] = dv[i] = 0.5L - 0.3L * i;
    s += v[i] * v[i] * (1 + 0.1L * i), ds += 2 * v[i] * dv[i] * (1 + 0.1L * i);
  }
  long double d = __parad_fwddiff_ld((void *)norm_like, v, dv, parad_const, 5);
  CHECK_CLOSE((double)d, (double)(ds / (2 * sqrtl(s))), 1e-12);
  for (int i = 0; i < 5; i++) {
    CHECK_CLOSE((double)v[i], (double)expl(v0[i]), 1e-15);
    CHECK_CLOSE((double)dv[i], (double)(expl(v0[i]) * dv0[i]), 1e-12);
  }
  return check_done();
}
