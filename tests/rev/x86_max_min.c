// x86's max and min intrinsics (_mm_max_pd, _mm_min_ps, _mm256_..., _mm512_...: llvm.x86.*.max/min) were
// refused as target intrinsics without a derivative; they are rules now, a > b ? a : b and a < b ? a : b
// lane by lane, whose derivative goes to the operand returned: the second where they tie or either is a
// NaN, as the instructions do. SSE2's doubles and SSE's floats (baseline x86-64), clamps of computed values
// against constants and against each other, ties included. Gradients and tangents along unit directions
// against the analytic derivative (1e-14; floats 1e-6), at -O2 (%cflags) and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <emmintrin.h>
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

/* x: 4 values; max(x0^2, 0.5), max(x1, x2 * x3) as a pair, min(x2, x3) with x2 == x3 (a tie), and floats */
double f(const double *x) {
  __m128d a = _mm_set_pd(x[1], x[0] * x[0]), b = _mm_set_pd(x[2] * x[3], 0.5);
  __m128d hi = _mm_max_pd(a, b), lo = _mm_min_pd(_mm_set1_pd(x[2]), _mm_set1_pd(x[3]));
  __m128 fa = _mm_set_ps(0, 0, (float)x[1], (float)x[0]), fb = _mm_set_ps(0, 0, (float)x[3], 0.25f);
  __m128 fm = _mm_min_ps(fa, fb);
  double t[2], u[2];
  float v[4];
  _mm_storeu_pd(t, hi), _mm_storeu_pd(u, lo), _mm_storeu_ps(v, fm);
  return t[0] + 2 * t[1] + 3 * u[0] + 5 * u[1] + 7 * (double)v[0] + 11 * (double)v[1];
}

int main(void) {
  double x[4] = {1.5, 0.25, 0.75, 0.75}, g[4] = {0}, want[4] = {0};
  __parad_autodiff((void *)f, x, g);
  want[0] += 2 * x[0];                                   /* x0^2 > 0.5 */
  want[2] += 2 * x[3], want[3] += 2 * x[2];             /* x2 x3 > x1 */
  want[3] += 3 + 5;                                      /* a tie: the second operand, x3 */
  want[1] += 11;                                         /* min(x1, x3) = x1 as floats; min(x0, 0.25) = 0.25 */
  for (int i = 0; i < 4; i++) {
    CHECK_CLOSE(g[i], want[i], 1e-6);
    double v[4] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), want[i], 1e-6);
  }
  CHECK_CLOSE(g[0], want[0], 1e-14); /* the doubles' parts exactly */
  CHECK_CLOSE(g[2], want[2], 1e-14);
  return check_done();
}
