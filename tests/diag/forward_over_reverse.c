// Forward mode over a function that computes a reverse-mode gradient (a Hessian-vector product) is refused
// at the inner request, naming the outer entry point and the function it was asked of, at -O2 and -O0;
// forward over forward, the way to second derivatives today, builds and is right (d2/dx2 of x^3 sin x).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: rm -f %t0 && not %parad-cc -O0 -I%S/../include %s -o %t0 2>&1 | FileCheck %s
// RUN: test ! -e %t0
// RUN: %parad-cc %cflags -DTWICE_FORWARD %s -o %t2 -lm && %t2
// CHECK: forward_over_reverse.c:[[@LINE+14]]:{{[0-9]+}}: error: __parad_fwddiff of 'grad': forward mode over a reverse-mode derivative computed here (a Hessian-vector product) is not supported yet; differentiate twice in forward mode instead
// CHECK-NOT: error
#include <math.h>
#include "check.h"
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i] * sin(x[i]);
  return s;
}
#ifndef TWICE_FORWARD
static double grad(const double *x, double *g, int n) {
  __parad_autodiff((void *)f, x, g, parad_const, n);
  return g[0];
}
#endif

static double g1(double t) { return t * t * t * sin(t); }
static double d1(double t) { return __parad_fwddiff((void *)g1, t, 1.0); }

int main(void) {
#ifndef TWICE_FORWARD
  double x[2] = {0.4, -0.9}, v[2] = {1, 0}, g[2] = {0, 0}, dg[2] = {0, 0};
  __parad_fwddiff((void *)grad, x, v, g, dg, parad_const, 2);
#endif
  double t = 0.7, want = 6 * t * sin(t) + 6 * t * t * cos(t) - t * t * t * sin(t);
  CHECK_CLOSE(__parad_fwddiff((void *)d1, t, 1.0), want, 1e-12);
  CHECK_CLOSE((d1(t + 1e-5) - d1(t - 1e-5)) / 2e-5, want, 1e-6);
  return check_done();
}
