// Duplicated pointers and a loop of unknown trip count: f(x) = sum_i sin(x_i) * x_i.
// Each tangent direction is checked against the analytic partial derivative (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

static double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x[i]) * x[i];
  return s;
}

int main(int argc, char **argv) {
  int n = 50 + argc; /* not a compile-time constant */
  double x[64], dx[64];
  for (int i = 0; i < n; i++) x[i] = 0.1 * i - 2;
  for (int k = 0; k < n; k += 7) {
    for (int i = 0; i < n; i++) dx[i] = i == k;
    double d = __parad_fwddiff((void *)f, x, dx, parad_const, n);
    CHECK_CLOSE(d, cos(x[k]) * x[k] + sin(x[k]), 1e-12);
  }
  /* a general direction: the tangent is the directional derivative */
  double want = 0;
  for (int i = 0; i < n; i++) dx[i] = cos(i), want += dx[i] * (cos(x[i]) * x[i] + sin(x[i]));
  CHECK_CLOSE(__parad_fwddiff((void *)f, x, dx, n), want, 1e-12);
  return check_done();
}
