// Floating-point atomics (atomicrmw fadd / fsub in the IR) on active memory: __atomic_fetch_add and
// __atomic_fetch_sub on a double accumulator in a loop (the fetched old value used too), and
// __atomic_add_fetch on a float. The tangent of the accumulator (its shadow) and of the result are
// checked against the analytic derivatives (tolerance 1e-12 for double, 1e-5 for float).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
float __parad_fwddiff_f(void *, ...);

__attribute__((noinline)) static double accumulate(double *sum, const double *x, int n) {
  double olds = 0;
  for (int i = 0; i < n; i++) {
    double old = __atomic_fetch_add(sum, x[i] * x[i], __ATOMIC_RELAXED); /* sum += x_i^2 */
    olds += old * x[i];
  }
  __atomic_fetch_sub(sum, sin(x[0]), __ATOMIC_SEQ_CST); /* sum -= sin x_0 */
  return olds;
}

__attribute__((noinline)) static float bump(float *p, float x) { return __atomic_add_fetch(p, x * x * x, __ATOMIC_SEQ_CST) * x; }

int main(void) {
  enum { N = 5 };
  double x[N] = {0.5, -1.2, 2.0, 0.3, 1.1}, dx[N] = {1, 0.5, -1, 2, 0.25};
  double s0 = 0.7, ds0 = 0.4, s = s0, ds = ds0;
  double d = __parad_fwddiff((void *)accumulate, &s, &ds, x, dx, parad_const, N);
  /* old_i = s0 + sum_{j<i} x_j^2; result = sum_i old_i x_i */
  double want = 0, old = s0, dold = ds0, sq = 0, dsq = 0;
  for (int i = 0; i < N; i++) {
    want += dold * x[i] + old * dx[i];
    old += x[i] * x[i], dold += 2 * x[i] * dx[i];
    sq += x[i] * x[i], dsq += 2 * x[i] * dx[i];
  }
  CHECK_CLOSE(d, want, 1e-12);
  CHECK_CLOSE(s, s0 + sq - sin(x[0]), 1e-14);
  CHECK_CLOSE(ds, ds0 + dsq - cos(x[0]) * dx[0], 1e-12);

  float p = 1.5f, dp = -0.5f, xf = 0.8f;
  float r = __parad_fwddiff_f((void *)bump, &p, &dp, xf, 2.0f);
  float newp = 1.5f + xf * xf * xf, dnewp = -0.5f + 3 * xf * xf * 2.0f;
  CHECK_CLOSE(dp, dnewp, 1e-5);
  CHECK_CLOSE(r, dnewp * xf + newp * 2.0f, 1e-5);
  return check_done();
}
