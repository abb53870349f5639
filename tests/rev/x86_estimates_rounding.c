// x86's estimates of 1/sqrt(x) and 1/x (_mm_rsqrt_ps, _mm_rcp_ps, _mm256_rsqrt_ps, _mm256_rcp_ps: 12
// bits) and its packed rounding (_mm_floor_ps, _mm_round_pd, _mm256_ceil_ps, ...) were refused as target
// intrinsics without a derivative (a game physics probe: rsqrt then a Newton step normalises vectors).
// They are rules now: the derivative of what the estimate estimates, at x (-x^-3/2 / 2 and -1/x^2), and
// zero for rounding. Gradients and tangents along unit directions of a normalisation with one Newton
// step, a reciprocal, a fractional part, against the analytic derivative of the exact functions (the
// estimate's 12 bits and the Newton step's remainder: tolerance 2e-3 relative), in SSE (baseline x86-64
// with -msse4.1) and AVX (-mavx), at -O2 and -O0.
// RUN: %parad-cc %cflags -msse4.1 %s -o %t -lm && %t
// RUN: %parad-cc -O0 -msse4.1 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags -mavx %s -o %t1 -lm && %t1
#include <immintrin.h>
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

/* x: 4 values. The length of (x0, x1, x2) normalised by rsqrt and a Newton step (1), the sum of x's
   reciprocals, and the fractional parts of 3 x (floor) and x (round down, as doubles) */
double f(const double *x) {
  __m128 v = _mm_set_ps(0, (float)x[2], (float)x[1], (float)x[0]);
  __m128 d = _mm_dp_ps(v, v, 0x7f);
  __m128 r = _mm_rsqrt_ps(d);
  r = _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(0.5f), r), _mm_sub_ps(_mm_set1_ps(3.0f), _mm_mul_ps(d, _mm_mul_ps(r, r))));
  __m128 n = _mm_mul_ps(v, r); /* the unit vector */
  __m128 w = _mm_set_ps((float)x[3], (float)x[2], (float)x[1], (float)x[0]);
  __m128 inv = _mm_rcp_ps(w);
  __m128 t3 = _mm_mul_ps(_mm_set1_ps(3.0f), w), frac = _mm_sub_ps(t3, _mm_floor_ps(t3));
  __m128d xd = _mm_loadu_pd(x), fd = _mm_sub_pd(xd, _mm_round_pd(xd, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
  float a[4], b[4], c[4];
  double e[2];
  _mm_storeu_ps(a, n), _mm_storeu_ps(b, inv), _mm_storeu_ps(c, frac), _mm_storeu_pd(e, fd);
  double s = a[0] + 2.0 * a[1] + 3.0 * a[2];
  for (int i = 0; i < 4; i++) s += 0.5 * b[i] + 0.25 * c[i];
  return s + e[0] + e[1];
}

#ifdef __AVX__
/* the same estimates eight lanes wide, and a ceiling, of y = x^2 + 1/2: x[i] in lanes 3 - i and 4 + i */
double g8(const double *x) {
  float y[4];
  for (int i = 0; i < 4; i++) y[i] = (float)(x[i] * x[i] + 0.5);
  __m256 w = _mm256_set_ps(y[3], y[2], y[1], y[0], y[0], y[1], y[2], y[3]);
  __m256 r = _mm256_rsqrt_ps(w), q = _mm256_rcp_ps(w), c = _mm256_sub_ps(_mm256_ceil_ps(w), w);
  float a[8], b[8], d[8];
  _mm256_storeu_ps(a, r), _mm256_storeu_ps(b, q), _mm256_storeu_ps(d, c);
  double s = 0;
  for (int i = 0; i < 8; i++) s += a[i] + (i + 1) * 0.1 * b[i] + d[i];
  return s;
}
#endif

int main(void) {
  double x[4] = {0.6, -0.8, 1.2, 2.7}, g[4] = {0}, want[4] = {0};
  double len = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), k[3] = {1, 2, 3}, kx = 0;
  for (int i = 0; i < 3; i++) kx += k[i] * x[i];
  for (int i = 0; i < 3; i++) want[i] += k[i] / len - kx * x[i] / (len * len * len);
  for (int i = 0; i < 4; i++) want[i] += -0.5 / (x[i] * x[i]) + 0.25 * 3 * 1; /* frac(3x)' = 3 */
  want[0] += 1, want[1] += 1;                                                   /* x - floor(x) */
  __parad_autodiff((void *)f, x, g);
  for (int i = 0; i < 4; i++) {
    CHECK_CLOSE(g[i], want[i], 2e-3);
    double v[4] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), want[i], 2e-3);
  }
#ifdef __AVX__
  for (int i = 0; i < 4; i++) { /* two lanes each, their weights of the reciprocal 0.1 (4 - i) + 0.1 (5 + i) */
    double y = x[i] * x[i] + 0.5, want8 = (2 * (-0.5 / (y * sqrt(y))) - 0.9 / (y * y) - 2) * 2 * x[i], g8d[4] = {0}, v[4] = {0};
    __parad_autodiff((void *)g8, x, g8d);
    v[i] = 1;
    CHECK_CLOSE(g8d[i], want8, 2e-3);
    CHECK_CLOSE(__parad_fwddiff((void *)g8, x, v), want8, 2e-3);
  }
#endif
  return check_done();
}
