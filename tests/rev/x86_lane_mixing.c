// x86 intrinsics whose lanes mix: pair sums (_mm_hadd_pd, _mm_hsub_pd, _mm_hadd_ps, _mm256_hadd_pd,
// _mm256_hsub_ps), narrowing (_mm_cvtpd_ps, _mm256_cvtpd_ps) and masked dot products (_mm_dp_pd,
// _mm_dp_ps, _mm256_dp_ps) were refused as target intrinsics without a rule; they are shuffles, fptrunc,
// fmul and fadd now, in the order the instructions add (ad/x86_vectors.h). The doubles' part against
// central finite differences (h = 1e-6, 1e-7); the floats' part against its analytic gradient (1e-5, float
// rounding); gradients against tangents along unit directions (1e-12, floats 1e-6); at -O2 (%cflags) and -O0. The AVX
// forms run where the processor has AVX (every machine this suite runs on).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <immintrin.h>
#include <math.h>
#include <stdio.h>

#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 8 };

static double lanes_sum(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * v[i];
  return s;
}

/* p = [x0^2, x1 x2], q = [sin x4, x3] */
__attribute__((target("sse4.1"))) static double doubles_sse(const double *x) {
  __m128d p = _mm_set_pd(x[1] * x[2], x[0] * x[0]), q = _mm_set_pd(x[3], sin(x[4]));
  double h[2], s[2], d[2];
  _mm_storeu_pd(h, _mm_hadd_pd(p, q));
  _mm_storeu_pd(s, _mm_hsub_pd(p, q));
  _mm_storeu_pd(d, _mm_dp_pd(p, q, 0x31));
  return lanes_sum(h, 2) + 3 * lanes_sum(s, 2) + 7 * lanes_sum(d, 2);
}

__attribute__((target("avx"))) static double doubles_avx(const double *x) {
  __m256d a = _mm256_set_pd(x[5] * x[6], x[7], x[0] * x[7], x[6]), b = _mm256_set_pd(1, x[5], x[2], x[1] * x[1]);
  double h[4], s[4];
  _mm256_storeu_pd(h, _mm256_hadd_pd(a, b));
  _mm256_storeu_pd(s, _mm256_hsub_pd(b, a));
  return lanes_sum(h, 4) + 5 * lanes_sum(s, 4);
}

/* h0 = x0^2 + x1 x2, h1 = sin x4 + x3, s0 = x0^2 - x1 x2, s1 = sin x4 - x3 as floats: c = [h0, h1, 0, 0],
 * hadd_ps(c, [s0, s1, 0, 0]) = [h0 + h1, 0, s0 + s1, 0], dp_ps(c, c, 0x33) = [h0^2 + h1^2, same, 0, 0]:
 * (h0 + h1) + 3 (s0 + s1) + 8 (h0^2 + h1^2) + 7 h1 */
__attribute__((target("sse4.1"))) static double floats_sse(const double *x) {
  __m128d p = _mm_set_pd(x[1] * x[2], x[0] * x[0]), q = _mm_set_pd(x[3], sin(x[4]));
  __m128 c = _mm_cvtpd_ps(_mm_hadd_pd(p, q)), cs = _mm_cvtpd_ps(_mm_hsub_pd(p, q));
  float sums[4], dots[4], cv[4];
  _mm_storeu_ps(sums, _mm_hadd_ps(c, cs));
  _mm_storeu_ps(dots, _mm_dp_ps(c, c, 0x33));
  _mm_storeu_ps(cv, c);
  return sums[0] + 2 * sums[1] + 3 * sums[2] + 4 * sums[3] + 3 * dots[0] + 5 * dots[1] + 11 * dots[2] + 7 * cv[1] + 13 * cv[2];
}

/* _mm256_cvtpd_ps of [x0, x1 x2, x3, x4^2], both halves of hsub_ps(v, v) and dp_ps(v, v, 0xF1) of
 * v = [that, 0, 0, 0, 0]: (x0 - x1 x2) + (x3 - x4^2) twice in the low half, and x0^2 + (x1 x2)^2 + x3^2 + x4^4 */
__attribute__((target("avx"))) static double floats_avx(const double *x) {
  __m128 n = _mm256_cvtpd_ps(_mm256_set_pd(x[4] * x[4], x[3], x[1] * x[2], x[0]));
  __m256 v = _mm256_set_m128(_mm_setzero_ps(), n);
  float s[8], d[8];
  _mm256_storeu_ps(s, _mm256_hsub_ps(v, v));
  _mm256_storeu_ps(d, _mm256_dp_ps(v, v, 0xF1));
  return s[0] + s[1] + 2 * s[2] + 2 * s[3] + 9 * s[4] + d[0] + 9 * d[4];
}

static void check_tangents(void *fp, const double *x, const double *g, double tolerance) {
  for (int i = 0; i < N; i++) {
    double e[N] = {0}, y[N];
    e[i] = 1;
    for (int k = 0; k < N; k++) y[k] = x[k];
    CHECK_CLOSE(__parad_fwddiff(fp, y, e), g[i], tolerance);
  }
}

static void check_fd(double (*f)(const double *), const double *x, const double *g) {
  for (int i = 0; i < N; i++) {
    double y[N], h = 1e-6;
    for (int k = 0; k < N; k++) y[k] = x[k];
    y[i] = x[i] + h;
    double hi = f(y);
    y[i] = x[i] - h;
    double lo = f(y);
    CHECK_CLOSE(g[i], (hi - lo) / (2 * h), 1e-7);
  }
}

int main(void) {
  double x[N] = {0.7, -0.4, 1.3, 0.25, 0.9, -1.1, 0.6, 0.35};
  double g[N] = {0};
  __parad_autodiff((void *)doubles_sse, x, g);
  check_fd(doubles_sse, x, g);
  check_tangents((void *)doubles_sse, x, g, 1e-12);

  double gf[N] = {0}, want[N] = {0};
  __parad_autodiff((void *)floats_sse, x, gf);
  float h0 = (float)(x[0] * x[0] + x[1] * x[2]), h1 = (float)(sin(x[4]) + x[3]);
  double dh0 = 1 + 3 * 2 * h0 + 5 * 2 * h0, dh1 = 1 + 3 * 2 * h1 + 5 * 2 * h1 + 7, ds0 = 3, ds1 = 3;
  want[0] = (dh0 + ds0) * 2 * x[0];
  want[1] = (dh0 - ds0) * x[2];
  want[2] = (dh0 - ds0) * x[1];
  want[3] = dh1 - ds1;
  want[4] = (dh1 + ds1) * cos(x[4]);
  for (int i = 0; i < N; i++) CHECK_CLOSE(gf[i], want[i], 1e-5);
  check_tangents((void *)floats_sse, x, gf, 1e-6);

  if (!__builtin_cpu_supports("avx")) {
    printf("no AVX: the AVX forms not run\n");
    return check_done();
  }
  double ga[N] = {0};
  __parad_autodiff((void *)doubles_avx, x, ga);
  check_fd(doubles_avx, x, ga);
  check_tangents((void *)doubles_avx, x, ga, 1e-12);

  double gv[N] = {0}, wv[N] = {0};
  __parad_autodiff((void *)floats_avx, x, gv);
  float v[4] = {(float)x[0], (float)(x[1] * x[2]), (float)x[3], (float)(x[4] * x[4])};
  /* s[0] = v0 - v1, s[1] = v2 - v3, s[2] = s[0], s[3] = s[1], s[4] = 0; d[0] = |v|^2 */
  double dv[4] = {3 + 2 * v[0], -3 + 2 * v[1], 3 + 2 * v[2], -3 + 2 * v[3]};
  wv[0] = dv[0], wv[1] = dv[1] * x[2], wv[2] = dv[1] * x[1], wv[3] = dv[2], wv[4] = dv[3] * 2 * x[4];
  for (int i = 0; i < N; i++) CHECK_CLOSE(gv[i], wv[i], 1e-5);
  check_tangents((void *)floats_avx, x, gv, 1e-6);
  return check_done();
}
