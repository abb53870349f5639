// Reverse mode on scalar functions: the gradients of active scalar arguments come back in order, as a
// double for one and a struct for several (one may be passed as constant). Checked against analytic
// derivatives (tolerance 1e-12) and against forward-mode tangents of the same function.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

typedef struct { double dx, dy; } Grad2;
typedef struct { double dx, dy, dz; } Grad3;
double __parad_autodiff(void *, ...);
Grad2 __parad_autodiff2(void *, ...);
Grad3 __parad_autodiff3(void *, ...);
double __parad_fwddiff(void *, ...);

static double poly(double x) { return 3 * x * x * x - 2 * x * x + x - 7; }
static double rational(double x, double y) { return x * y + x / y - y / (1 + x * x); }
static double three(double x, double y, double z) { return exp(x * y) * sin(z) + sqrt(x * x + z * z) - y / z; }

int main(void) {
  for (double x = -2; x <= 2; x += 0.5) CHECK_CLOSE(__parad_autodiff((void *)poly, x), 9 * x * x - 4 * x + 1, 1e-12);
  double x = 1.3, y = -0.7, z = 0.4;
  Grad2 g = __parad_autodiff2((void *)rational, x, y);
  double q = 1 + x * x;
  CHECK_CLOSE(g.dx, y + 1 / y + y * 2 * x / (q * q), 1e-12);
  CHECK_CLOSE(g.dy, x - x / (y * y) - 1 / q, 1e-12);
  CHECK_CLOSE(g.dx, __parad_fwddiff((void *)rational, x, 1.0, y, 0.0), 1e-12);
  CHECK_CLOSE(g.dy, __parad_fwddiff((void *)rational, x, 0.0, y, 1.0), 1e-12);
  /* y constant: only x's gradient comes back */
  CHECK_CLOSE(__parad_autodiff((void *)rational, x, parad_const, y), g.dx, 1e-12);
  Grad3 h = __parad_autodiff3((void *)three, parad_out, x, parad_out, y, parad_out, z);
  CHECK_CLOSE(h.dx, __parad_fwddiff((void *)three, x, 1.0, y, 0.0, z, 0.0), 1e-12);
  CHECK_CLOSE(h.dy, __parad_fwddiff((void *)three, x, 0.0, y, 1.0, z, 0.0), 1e-12);
  CHECK_CLOSE(h.dz, __parad_fwddiff((void *)three, x, 0.0, y, 0.0, z, 1.0), 1e-12);
  CHECK_CLOSE(h.dy, x * exp(x * y) * sin(z) - 1 / z, 1e-12);
  return check_done();
}
