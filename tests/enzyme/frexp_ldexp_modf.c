// libm functions with a second result written through a pointer, and the exponent scalings, written as
// Enzyme's users write them, in both modes:
//   frexp(x, &e) = m with x = m 2^e: dm/dx = 2^-e, e an int without derivative (frexpf too; at x = 0,
//     where m = e = 0, the derivative is taken as 1);
//   ldexp, ldexpf, scalbn, scalbnf, scalbln: d/dx = 2^n;
//   modf(x, &ip) = the fractional part: d/dx = 1; the integral part written through ip has derivative
//     0, also where ip points into an output array that held an active value before (its tangent is
//     reset in forward mode, its adjoint discarded in reverse mode) (modff too);
//   modf writing into an argument's memory that the function read before: the reverse sweep must not
//     read it again after the call.
// Against analytic derivatives (1e-12; float functions 1e-6) and central differences (1e-6).
// At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff_void(void *, ...) __asm__("__enzyme_autodiff");
extern void __enzyme_fwddiff_void(void *, ...) __asm__("__enzyme_fwddiff");
int enzyme_dup, enzyme_const, enzyme_out;

static double mantissa(double x) {
  int e;
  return frexp(x, &e);
}
static double mantissa_sq(double x) {
  int e;
  double m = frexp(x, &e);
  return m * m + e;
}
static double mantissa_f(double x) {
  int e;
  float m = frexpf((float)x, &e);
  return m * (double)e;
}
static double scalings(double x) {
  return ldexp(x, 3) + ldexpf((float)x, -2) + scalbn(x * x, -1) + scalbnf((float)x, 4) + scalbln(x, 2L);
}
static double fraction(double x) {
  double ip;
  double fr = modf(x, &ip);
  return fr * fr + ip * x;
}
static double fraction_f(double x) {
  float ip;
  float fr = modff((float)(x * x), &ip);
  return fr + (double)ip;
}

/* whole[i] first holds an active value; modf then overwrites it with the integral part */
static void split(const double *x, double *frac, double *whole, int n) {
  for (int i = 0; i < n; i++) {
    whole[i] = 3 * x[i];
    frac[i] = modf(whole[i], &whole[i]);
  }
}

/* the value read from *ip before modf overwrites it is the one its derivative needs */
static double before_overwrite(const double *x, double *ip) {
  double a = ip[0] * x[0];
  double f = modf(x[1], ip);
  return a + f * x[0];
}

static double call_fraction(void *ctx, double x) {
  (void)ctx;
  return fraction(x);
}
static double call_mantissa(void *ctx, double x) {
  (void)ctx;
  return mantissa_sq(x);
}

int main(void) {
  /* frexp: 5.3 = 0.6625 2^3, dm/dx = 1/8 */
  double x = 5.3, m = 5.3 / 8;
  CHECK_CLOSE(__enzyme_autodiff((void *)mantissa_sq, x), 2 * m / 8, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)mantissa_sq, x, 1.0), 2 * m / 8, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff((void *)mantissa_sq, -0.3), 2 * (-0.3 * 2) * 2, 1e-12); /* -0.3 = -0.6 2^-1 */
  CHECK_CLOSE(__enzyme_fwddiff((void *)mantissa_sq, x, 1.0), fd_central(call_mantissa, NULL, x, 1e-5), 1e-6);
  CHECK_CLOSE(__enzyme_autodiff((void *)mantissa, x), 1.0 / 8, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff((void *)mantissa, 0.0), 1, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)mantissa, 0.0, 1.0), 1, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)mantissa_f, x, 1.0), 3.0 / 8, 1e-6);
  CHECK_CLOSE(__enzyme_autodiff((void *)mantissa_f, x), 3.0 / 8, 1e-6);

  /* ldexp and friends: 8 + 1/4 + 2x/2 + 16 + 4 */
  CHECK_CLOSE(__enzyme_autodiff((void *)scalings, x), 8 + 0.25 + x + 16 + 4, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)scalings, x, 1.0), 8 + 0.25 + x + 16 + 4, 1e-12);

  /* modf: fr = 0.3, ip = 5: d/dx (fr^2 + ip x) = 2 fr + ip */
  double fr = x - 5;
  CHECK_CLOSE(__enzyme_autodiff((void *)fraction, x), 2 * fr + 5, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)fraction, x, 1.0), 2 * fr + 5, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff((void *)fraction, -2.25), 2 * -0.25 - 2, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)fraction, x, 1.0), fd_central(call_fraction, NULL, x, 1e-5), 1e-6);
  CHECK_CLOSE(__enzyme_autodiff((void *)fraction_f, 1.5), 3, 1e-6); /* d/dx x^2 = 3; the integral part flat */
  CHECK_CLOSE(__enzyme_fwddiff((void *)fraction_f, 1.5, 1.0), 3, 1e-6);

  /* modf into an output array whose elements held 3 x before: dfrac/dx = 3, dwhole/dx = 0 */
  double xs[3] = {0.4, 1.7, -2.2}, frac[3], whole[3], dfrac[3], dwhole[3], dx[3] = {0, 0, 0}, v[3] = {1, 1, 1};
  __enzyme_fwddiff_void((void *)split, xs, v, frac, dfrac, whole, dwhole, 3);
  for (int i = 0; i < 3; i++) {
    CHECK_CLOSE(frac[i], 3 * xs[i] - trunc(3 * xs[i]), 1e-12);
    CHECK_CLOSE(dfrac[i], 3, 1e-12);
    CHECK_CLOSE(dwhole[i], 0, 1e-12);
  }
  for (int i = 0; i < 3; i++) dfrac[i] = 0, dwhole[i] = 1; /* the adjoint of the integral parts only */
  __enzyme_autodiff_void((void *)split, xs, dx, frac, dfrac, whole, dwhole, 3);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(dx[i], 0, 1e-12);
  for (int i = 0; i < 3; i++) dfrac[i] = 1, dwhole[i] = 0; /* and of the fractional parts */
  __enzyme_autodiff_void((void *)split, xs, dx, frac, dfrac, whole, dwhole, 3);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(dx[i], 3, 1e-12);

  /* a = ip x0 with ip = 2.5 before modf writes 1: d/dx0 = 2.5 + fr(x1), d/dx1 = x0 */
  double y[2] = {0.5, 1.25}, dy[2] = {0, 0}, ip = 2.5, dip = 0;
  __enzyme_autodiff((void *)before_overwrite, y, dy, &ip, &dip);
  CHECK_CLOSE(ip, 1, 1e-12);
  CHECK_CLOSE(dy[0], 2.5 + 0.25, 1e-12);
  CHECK_CLOSE(dy[1], 0.5, 1e-12);
  CHECK_CLOSE(dip, 0.5, 1e-12);
  ip = 2.5;
  double ty[2] = {1, 0}, tip = 7; /* d/dx0 + 7 d/dip, and the integral part's tangent 0 */
  CHECK_CLOSE(__enzyme_fwddiff((void *)before_overwrite, y, ty, &ip, &tip), 2.75 + 7 * 0.5, 1e-12);
  CHECK_CLOSE(tip, 0, 1e-12);
  return check_done();
}
