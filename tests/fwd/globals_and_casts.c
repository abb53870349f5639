// Constant data in globals (a coefficient table) is inactive; conversions between float and double
// carry tangents, conversions to and from integers do not. Analytic derivatives (tolerance 1e-6 where
// a float is involved, 1e-12 otherwise).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

static const double coeff[5] = {1, -0.5, 0.25, -0.125, 0.0625};
double scale = 2.0; /* a global the function only reads: constant */

__attribute__((noinline)) static double horner(double x) {
  double r = 0;
  for (int i = 4; i >= 0; i--) r = r * x + coeff[i];
  return scale * r;
}

__attribute__((noinline)) static double mixed(double x) {
  float f = (float)x;           /* fptrunc */
  double back = f * 3.0f;       /* float arithmetic, fpext */
  int k = (int)(x * 10);        /* fptosi: no derivative */
  double step = k / 10.0;       /* sitofp: constant */
  return back * x + step;
}

int main(void) {
  for (double x = -1; x <= 1; x += 0.4) {
    double want = 0;
    for (int i = 1; i < 5; i++) want += i * coeff[i] * pow(x, i - 1);
    CHECK_CLOSE(__parad_fwddiff((void *)horner, x, 1.0), scale * want, 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)mixed, x, 1.0), 6 * x, 1e-6);
  }
  return check_done();
}
