// Second derivatives through lgamma and tgamma, whose first derivatives call the runtime's digamma: it had
// no rule, and forward mode over either mode refused it ("cannot differentiate a call to
// '__parad_digamma'"), in a Fisher information or a Newton step for a likelihood with Gamma functions.
// Its rule is the runtime's trigamma now.
//   f(x) = lgamma(x) + tgamma(0.5 x), and lgamma, lgammaf alone
// f'' by forward over forward and forward over reverse, against each other (1e-12) and against central
// differences of f' (h 1e-5, 1e-7); lgamma'' against trigamma (pi^2/6 at 1, 1e-12; its series at 2.3, 1e-11);
// the float function against the double one (1e-4). Third derivatives of lgamma (forward over forward over
// forward: the runtime's tetragamma is trigamma's rule) against zeta(3) at 1/2, 1 and 2, series at 2.3 and
// 12.5 (1e-12, 1e-11) and central differences of the second derivative (1e-6). At x in {0.3, 1, 2.3, 7.5,
// -1.7} (reflected below 1/2), -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
float __parad_fwddiff_f(void *, ...) __asm__("__parad_fwddiff");

static double f(double x) { return lgamma(x) + tgamma(0.5 * x); }
static double df_forward(double x) { return __parad_fwddiff((void *)f, x, 1.0); }
static double df_reverse(double x) { return __parad_autodiff((void *)f, x); }
static double lg(double x) { return lgamma(x); }
static double dlg(double x) { return __parad_fwddiff((void *)lg, x, 1.0); }
static double d2lg(double x) { return __parad_fwddiff((void *)dlg, x, 1.0); }
static float lgf(float x) { return lgammaf(x); }
static float dlgf(float x) { return __parad_fwddiff_f((void *)lgf, x, 1.0f); }

int main(void) {
  const double at[5] = {0.3, 1.0, 2.3, 7.5, -1.7};
  for (int k = 0; k < 5; k++) {
    double x = at[k];
    double ff = __parad_fwddiff((void *)df_forward, x, 1.0), fr = __parad_fwddiff((void *)df_reverse, x, 1.0);
    CHECK_CLOSE(ff, fr, 1e-12);
    CHECK_CLOSE(ff, (df_forward(x + 1e-5) - df_forward(x - 1e-5)) / 2e-5, 1e-7);
    CHECK_CLOSE(__parad_fwddiff_f((void *)dlgf, (float)x, 1.0f), __parad_fwddiff((void *)dlg, x, 1.0), 1e-4);
  }
  CHECK_CLOSE(__parad_fwddiff((void *)dlg, 1.0, 1.0), M_PI * M_PI / 6, 1e-12);
  double series = 0; /* trigamma(2.3) = sum_k 1/(2.3 + k)^2, the tail by its integral */
  for (int k = 0; k < 1000000; k++) series += 1 / ((2.3 + k) * (2.3 + k));
  series += 1 / (2.3 + 1e6) + 0.5 / ((2.3 + 1e6) * (2.3 + 1e6));
  CHECK_CLOSE(__parad_fwddiff((void *)dlg, 2.3, 1.0), series, 1e-11);
  /* third derivatives: lgamma''' = tetragamma, -2 zeta(3) at 1, -14 zeta(3) at 1/2, 2 - 2 zeta(3) at 2 (the
     recurrence), and -2 sum_k 1/(x + k)^3 at 2.3 and -1.7 (reflected), against central differences of
     the second derivative elsewhere */
  const double zeta3 = 1.2020569031595942854;
  CHECK_CLOSE(__parad_fwddiff((void *)d2lg, 1.0, 1.0), -2 * zeta3, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)d2lg, 0.5, 1.0), -14 * zeta3, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)d2lg, 2.0, 1.0), 2 - 2 * zeta3, 1e-12);
  const double cubes_at[2] = {2.3, 12.5};
  for (int j = 0; j < 2; j++) {
    double sum = 0, y = cubes_at[j];
    for (int k = 0; k < 1000000; k++) sum += 1 / ((y + k) * (y + k) * (y + k));
    sum += 0.5 / ((y + 1e6) * (y + 1e6)); /* the tail by its integral */
    CHECK_CLOSE(__parad_fwddiff((void *)d2lg, y, 1.0), -2 * sum, 1e-11);
  }
  for (int k = 0; k < 5; k++) {
    double x = at[k];
    CHECK_CLOSE(__parad_fwddiff((void *)d2lg, x, 1.0), (d2lg(x + 1e-5) - d2lg(x - 1e-5)) / 2e-5, 1e-6);
  }
  return check_done();
}
