// Forward over forward: a function whose body asks for a derivative can itself be differentiated, which
// gives second (and third) derivatives. Against analytic derivatives (tolerance 1e-11).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

static double f(double x) { return x * x * x * sin(x); }
/* f'(x) by forward mode */
__attribute__((noinline)) static double df(double x) { return __parad_fwddiff((void *)f, x, 1.0); }
/* f''(x) by forward mode over df */
__attribute__((noinline)) static double d2f(double x) { return __parad_fwddiff((void *)df, x, 1.0); }

int main(void) {
  for (double x = -1.5; x < 2; x += 0.7) {
    double s = sin(x), c = cos(x);
    CHECK_CLOSE(df(x), 3 * x * x * s + x * x * x * c, 1e-11);
    CHECK_CLOSE(d2f(x), 6 * x * s + 6 * x * x * c - x * x * x * s, 1e-11);
    CHECK_CLOSE(__parad_fwddiff((void *)d2f, x, 1.0), 6 * s + 18 * x * c - 9 * x * x * s - x * x * x * c, 1e-10);
  }
  return check_done();
}
