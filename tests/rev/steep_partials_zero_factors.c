// A function finite where its slope is infinite (sqrt, pow(., 0.5), cbrt at 0) whose argument is a
// product with a factor exactly zero at run time: a variance a Heston scheme absorbed at 0, Black-Scholes'
// total variance sig^2 T at expiry, the standard deviation of equal values. The function is flat in the
// other factor there, but the reverse sweep carried the infinite adjoint of the argument on: infinity times
// the zero factor was NaN, in that gradient and every gradient added to it (forward mode was right). The
// mirror in forward mode: w sqrt(p) at w = p = 0, whose tangent along p, 0 times the infinite tangent of
// sqrt(p), was NaN (reverse mode was right). A zero factor now carries zero where the other side's
// derivative may be infinite (analysis/nonfinite.h: nonfinite_adjoint_possible, _tangent_possible).
//   heston(p) = 3 sqrt(p0 v + p1 v) + p1,  v = 0          d/dp = (0, 1)
//   expiry(p) = p0 sqrt(p1^2 T) + p0,      T = 0          d/dp = (1, 0)
//   root(p)   = pow(p0 v, 0.5) + cbrt(p1 v) + p0 p1, v = 0  d/dp = (p1, p0)
//   spread(p) = sqrt(sum (x_i - mean)^2 / 3) + p0, x_i = p0 + 0 p1 (four equal values)  d/dp = (1, 0)
//   scaled(p) = w sqrt(p0) + p1,           w = 0, p0 = 0  d/dp = (0, 1)
// Reverse mode, forward mode along each unit direction and vector forward mode (both at once) against the
// exact derivatives (1e-12); none NaN. At -O2 and -O0, and -O2 -ffast-math (where the optimiser may fold
// the zero away, the derivatives must be the same).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags -ffast-math %s -o %t1 -lm && %t1
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
typedef struct {
  double d[2];
} Two;
Two __parad_fwddiff_v(void *, ...);

static volatile double zero_at_run_time = 0.0;

static double heston(const double *p) {
  double v = zero_at_run_time;
  return 3.0 * sqrt(p[0] * v + p[1] * v) + p[1];
}
static double expiry(const double *p) {
  double t = zero_at_run_time;
  return p[0] * sqrt(p[1] * p[1] * t) + p[0];
}
static double root(const double *p) {
  double v = zero_at_run_time;
  return pow(p[0] * v, 0.5) + cbrt(p[1] * v) + p[0] * p[1];
}
static double spread(const double *p) {
  double z = zero_at_run_time, x[4], m = 0, s = 0;
  for (int i = 0; i < 4; i++) x[i] = p[0] + z * p[1];
  for (int i = 0; i < 4; i++) m += x[i] / 4;
  for (int i = 0; i < 4; i++) s += (x[i] - m) * (x[i] - m);
  return sqrt(s / 3) + p[0];
}
static double scaled(const double *p) {
  double w = zero_at_run_time;
  return w * sqrt(p[0]) + p[1];
}

typedef double (*Fn)(const double *);

static void check(Fn f, double p0, double p1, double want0, double want1) {
  double p[2] = {p0, p1}, g[2] = {0, 0}, e0[2] = {1, 0}, e1[2] = {0, 1};
  __parad_autodiff((void *)f, p, g);
  CHECK_CLOSE(g[0], want0, 1e-12);
  CHECK_CLOSE(g[1], want1, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)f, p, e0), want0, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)f, p, e1), want1, 1e-12);
  Two both = __parad_fwddiff_v((void *)f, parad_width, 2, p, e0, e1);
  CHECK_CLOSE(both.d[0], want0, 1e-12);
  CHECK_CLOSE(both.d[1], want1, 1e-12);
}

int main(void) {
  check(heston, 0.5, 0.7, 0, 1);
  check(expiry, 0.3, 0.2, 1, 0);
  check(root, 0.4, 0.9, 0.9, 0.4);
  check(spread, 0.7, 0.3, 1, 0);
  double p0 = zero_at_run_time;
  check(scaled, p0, 0.6, 0, 1);
  return check_done();
}
