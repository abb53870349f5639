// Vector forward mode: enzyme_width N computes N tangent directions in one call, returned as a struct of
// N doubles (two in registers, four through memory). Every lane against the analytic partial derivative
// (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

typedef struct { double d[2]; } Two;
typedef struct { double d[4]; } Four;
Two __enzyme_fwddiff2(void *, ...);
Four __enzyme_fwddiff4(void *, ...);

static double f(double x, double y) { return x * x * y + sin(x * y); }

static double g(const double *v, int n) { /* sum_i v_i^2 * exp(v_{i+1}) */
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += v[i] * v[i] * exp(v[i + 1]);
  return s;
}

int main(void) {
  double x = 0.8, y = -1.1;
  Two t = __enzyme_fwddiff2((void *)f, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0);
  CHECK_CLOSE(t.d[0], 2 * x * y + y * cos(x * y), 1e-12);
  CHECK_CLOSE(t.d[1], x * x + x * cos(x * y), 1e-12);

  double v[4] = {0.5, -0.2, 0.9, 0.3}, e[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  Four j = __enzyme_fwddiff4((void *)g, enzyme_width, 4, v, e[0], e[1], e[2], e[3], enzyme_const, 4);
  for (int k = 0; k < 4; k++) {
    double want = 0;
    if (k + 1 < 4) want += 2 * v[k] * exp(v[k + 1]);
    if (k > 0) want += v[k - 1] * v[k - 1] * exp(v[k]);
    CHECK_CLOSE(j.d[k], want, 1e-12);
  }
  return check_done();
}
