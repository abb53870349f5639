// A file whose derivatives are refused after requests were given a choice of gradients (ad/apart.h: a
// function without `restrict`, its noalias copy) is differentiated again without the choices, so that a
// copy's gradient never costs the program its build. PARAD_APART_REFUSE=1 makes the first run refused
// (a test hook); the build must then succeed, print nothing, and give the right gradient: against the
// analytic one (1e-12), at -O2 and at -O0 (whose optimised copies are given choices too). Without the
// hook, the same file builds with the choice (PARAD_PLAN shows the copy's plan), as a control.
// RUN: env PARAD_APART_REFUSE=1 %parad-cc %cflags %s -o %t 2> %t.err && %t && count 0 < %t.err
// RUN: env PARAD_APART_REFUSE=1 %parad-cc -O0 -I%S/../include %s -o %t0 2> %t0.err && %t0 && count 0 < %t0.err
// RUN: env PARAD_PLAN=1 %parad-cc %cflags %s -o %t1 2> %t1.plan && grep -q "plan of scale_add.apart" %t1.plan && %t1
#include "check.h"

void __parad_autodiff(void *, ...);
enum { N = 32 };

/* J = sum_i w_i (a x_i^2 + y_i), y updated in place */
__attribute__((noinline)) static double scale_add(const double *x, double *y, const double *w) {
  for (int i = 0; i < N; i++) y[i] += 2.0 * x[i] * x[i];
  double J = 0;
  for (int i = 0; i < N; i++) J += w[i] * y[i];
  return J;
}

int main(void) {
  static double x[N], y[N], w[N], dx[N], dy[N];
  for (int i = 0; i < N; i++) x[i] = 0.1 * i - 1, y[i] = 0.5, w[i] = 1 + 0.01 * i;
  __parad_autodiff((void *)scale_add, x, dx, y, dy, parad_const, w);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(dx[i], 4.0 * x[i] * w[i], 1e-12);
    CHECK_CLOSE(dy[i], w[i], 1e-12);
  }
  return check_done();
}
