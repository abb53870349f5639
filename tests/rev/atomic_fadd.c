// Floating-point atomics (atomicrmw fadd / fsub) on active memory in reverse mode: __atomic_fetch_add and
// __atomic_fetch_sub on a double accumulator in a loop, the fetched old value used too, and
// __atomic_add_fetch on a float. The accumulator's shadow is seeded with the adjoint of its final value
// and receives the gradient with respect to its initial value. Analytic gradient (tolerance 1e-12 for
// double, 1e-5 for float) and forward tangents along every unit direction (same tolerances).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
float __parad_autodiff_f(void *, ...);
float __parad_fwddiff_f(void *, ...);

__attribute__((noinline)) static double accumulate(double *sum, const double *x, int n) {
  double olds = 0;
  for (int i = 0; i < n; i++) {
    double old = __atomic_fetch_add(sum, x[i] * x[i], __ATOMIC_RELAXED);
    olds += old * x[i];
  }
  __atomic_fetch_sub(sum, sin(x[0]), __ATOMIC_SEQ_CST);
  return olds;
}

__attribute__((noinline)) static float bump(float *p, float x) { return __atomic_add_fetch(p, x * x * x, __ATOMIC_SEQ_CST) * x; }

enum { N = 5 };

int main(void) {
  const double x0[N] = {0.5, -1.2, 2.0, 0.3, 1.1}, s0 = 0.7, seed = 0.4;
  double x[N], dx[N] = {0}, s = s0, ds = seed;
  for (int i = 0; i < N; i++) x[i] = x0[i];
  __parad_autodiff((void *)accumulate, &s, &ds, x, dx, parad_const, N);
  /* result = sum_i old_i x_i with old_i = s0 + sum_{j<i} x_j^2; final sum = s0 + sum x_j^2 - sin x_0 */
  double want_s = seed; /* the initial sum enters every old value once */
  for (int i = 0; i < N; i++) want_s += x0[i];
  CHECK_CLOSE(ds, want_s, 1e-12);
  for (int k = 0; k < N; k++) {
    double old = s0, later = 0;
    for (int j = 0; j < N; j++) {
      if (j > k) later += x0[j];
      if (j < k) old += x0[j] * x0[j];
    }
    double want = old + 2 * x0[k] * later + seed * (2 * x0[k] - (k == 0) * cos(x0[0]));
    CHECK_CLOSE(dx[k], want, 1e-12);
  }
  for (int k = 0; k <= N; k++) {
    double x2[N], e[N], s2 = s0, es = k == N;
    for (int i = 0; i < N; i++) x2[i] = x0[i], e[i] = i == k;
    double t = __parad_fwddiff((void *)accumulate, &s2, &es, x2, e, parad_const, N);
    CHECK_CLOSE(k < N ? dx[k] : ds, t + seed * es, 1e-12);
  }

  float p = 1.5f, dp = -0.5f, xf = 0.8f;
  float dxf = __parad_autodiff_f((void *)bump, &p, &dp, xf);
  /* r = (p0 + x^3) x; final p = p0 + x^3 with adjoint -0.5 */
  CHECK_CLOSE(dxf, 1.5f + 4 * xf * xf * xf + -0.5f * 3 * xf * xf, 1e-5);
  CHECK_CLOSE(dp, xf + -0.5f, 1e-5);
  float p2 = 1.5f, e1 = 1.0f, e0 = 0.0f;
  CHECK_CLOSE(dp, __parad_fwddiff_f((void *)bump, &p2, &e1, xf, 0.0f) + -0.5f * e1, 1e-5);
  p2 = 1.5f;
  CHECK_CLOSE(dxf, __parad_fwddiff_f((void *)bump, &p2, &e0, xf, 1.0f) + -0.5f * e0, 1e-5);
  return check_done();
}
