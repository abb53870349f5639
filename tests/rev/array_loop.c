// Gradient of f(x) = sum_i sin(x_i) x_i over an array of unknown length: added into the shadow buffer
// the caller passed. Against the analytic gradient (tolerance 1e-12) and the forward tangents along each
// unit direction (tolerance 1e-12); the shadow is added to, not overwritten.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x[i]) * x[i];
  return s;
}

int main(int argc, char **argv) {
  int n = 30 + argc;
  double x[64], dx[64], e[64];
  for (int i = 0; i < n; i++) x[i] = 0.1 * i - 1.5, dx[i] = 1.0;
  __parad_autodiff((void *)f, x, dx, parad_const, n);
  for (int i = 0; i < n; i++) {
    CHECK_CLOSE(dx[i], 1.0 + cos(x[i]) * x[i] + sin(x[i]), 1e-12);
    for (int j = 0; j < n; j++) e[j] = i == j;
    CHECK_CLOSE(dx[i] - 1.0, __parad_fwddiff((void *)f, x, e, parad_const, n), 1e-12);
  }
  return check_done();
}
