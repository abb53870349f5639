// Two-argument libm functions: each partial derivative against the analytic one (tolerance 1e-11),
// including the branches of fmin/fmax and the x = 0 case of pow's exponent derivative.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

static double f_pow(double x, double y) { return pow(x, y); }
static double f_atan2(double y, double x) { return atan2(y, x); }
static double f_hypot(double x, double y) { return hypot(x, y); }
static double f_fmin(double x, double y) { return fmin(x, y); }
static double f_fmax(double x, double y) { return fmax(x, y); }
static double f_fmod(double x, double y) { return fmod(x, y); }
static double f_copysign(double x, double y) { return copysign(x, y); }

#define DX(f, x, y) __parad_fwddiff((void *)f, x, 1.0, y, 0.0)
#define DY(f, x, y) __parad_fwddiff((void *)f, x, 0.0, y, 1.0)

int main(void) {
  double x = 1.7, y = 0.6;
  CHECK_CLOSE(DX(f_pow, x, y), y * pow(x, y - 1), 1e-11);
  CHECK_CLOSE(DY(f_pow, x, y), pow(x, y) * log(x), 1e-11);
  CHECK_CLOSE(DY(f_pow, 0.0, 2.0), 0.0, 1e-11); /* not 0 * log(0) */
  CHECK_CLOSE(DX(f_pow, -2.0, 3.0), 12.0, 1e-11); /* negative base, integer exponent */
  CHECK_CLOSE(DX(f_atan2, y, x), x / (x * x + y * y), 1e-11);
  CHECK_CLOSE(DY(f_atan2, y, x), -y / (x * x + y * y), 1e-11);
  CHECK_CLOSE(DX(f_hypot, x, y), x / hypot(x, y), 1e-11);
  CHECK_CLOSE(DY(f_hypot, x, y), y / hypot(x, y), 1e-11);
  CHECK_CLOSE(DX(f_fmin, x, y), 0.0, 1e-15);
  CHECK_CLOSE(DY(f_fmin, x, y), 1.0, 1e-15);
  CHECK_CLOSE(DX(f_fmax, x, y), 1.0, 1e-15);
  CHECK_CLOSE(DY(f_fmax, x, y), 0.0, 1e-15);
  CHECK_CLOSE(DX(f_fmod, 7.5, 2.0), 1.0, 1e-15);
  CHECK_CLOSE(DY(f_fmod, 7.5, 2.0), -3.0, 1e-15);
  CHECK_CLOSE(DX(f_copysign, 2.0, -1.0), -1.0, 1e-15);
  CHECK_CLOSE(DX(f_copysign, -2.0, -1.0), 1.0, 1e-15);
  CHECK_CLOSE(DY(f_copysign, 2.0, -1.0), 0.0, 1e-15);
  return check_done();
}
