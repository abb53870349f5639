// copysign written on the bits, as SIMD code writes it: GCC vector extensions `(v2l)|a| | ((v2l)b & S)` and
// `((v2l)a & ~S) | ((v2l)b & S)`, SSE2's `_mm_or_pd(_mm_andnot_pd(-0.0, m), _mm_and_pd(-0.0, s))` with m
// computed, and a scalar through memcpy to uint64_t. Before, reverse mode gave zero adjoints and forward
// mode dropped the sign (no message); each is now llvm.copysign, bit for bit the same.
// f = sum_k w_k copysign(m_k, s_k); gradients and tangents (along unit directions) against the analytic
// d/dm copysign(m, s) = sign(m) sign(s) (1e-14), d/ds = 0, and central differences (h = 1e-6, 1e-8).
// -O2 (%cflags), -O0, -O3, and -O2 -ffast-math, where the optimiser drops the mask of a value it knows has no
// sign (sqrt's, x * x's) and marks the or disjoint (refused before: "integer arithmetic on the bits").
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O2 -ffast-math -I%S/../include %s -o %tf -lm && %tf
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
#include <emmintrin.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef double v2d __attribute__((vector_size(16)));
typedef long long v2l __attribute__((vector_size(16)));
#define SIGN ((long long)0x8000000000000000ULL)

enum { N = 8 }; /* x: a0 b0 a1 b1 (vector forms), then m0 m1 s0 s1 (SSE2) */

static double scalar_copysign(double m, double s) {
  uint64_t mb, sb;
  memcpy(&mb, &m, 8), memcpy(&sb, &s, 8);
  uint64_t r = (mb & ~(uint64_t)SIGN) | (sb & (uint64_t)SIGN);
  double d;
  memcpy(&d, &r, 8);
  return d;
}

double f(const double *x) {
  v2d a = {x[0], x[2]}, b = {x[1], x[3]};
  v2d r1 = (v2d)((v2l)__builtin_elementwise_abs(a) | ((v2l)b & (v2l){SIGN, SIGN}));
  v2d r2 = (v2d)(((v2l)a & ~(v2l){SIGN, SIGN}) | ((v2l)b & (v2l){SIGN, SIGN}));
  __m128d m = _mm_loadu_pd(x + 4), s = _mm_loadu_pd(x + 6);
  m = _mm_sqrt_pd(_mm_add_pd(_mm_mul_pd(m, m), _mm_set1_pd(1.0)));
  __m128d sm = _mm_set1_pd(-0.0), r3 = _mm_or_pd(_mm_andnot_pd(sm, m), _mm_and_pd(sm, s));
  double t[2];
  _mm_storeu_pd(t, r3);
  return r1[0] + 2 * r1[1] + 3 * r2[0] + 4 * r2[1] + 5 * t[0] + 6 * t[1] + 7 * scalar_copysign(x[1] * x[4], x[7]);
}

static double sgn(double v) { return v < 0 ? -1 : 1; }

int main(void) {
  double x[N] = {1.5, -1, -0.5, 2, 0.75, -1.25, -3, 4}, g[N] = {0}, want[N] = {0};
  __parad_autodiff((void *)f, x, g);
  want[0] = (1 + 3) * sgn(x[0]) * sgn(x[1]); /* r1 and r2: both copysign(a, b) as functions of a */
  want[2] = (2 + 4) * sgn(x[2]) * sgn(x[3]);
  for (int k = 0; k < 2; k++) {
    double mk = x[4 + k], root = sqrt(mk * mk + 1);
    want[4 + k] = (5 + k) * sgn(x[6 + k]) * mk / root;
  }
  double p = x[1] * x[4], c = 7 * sgn(p) * sgn(x[7]);
  want[1] += c * x[4], want[4] += c * x[1];
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(g[i], want[i], 1e-14);
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), want[i], 1e-14);
    double h = 1e-6, up[N], down[N];
    memcpy(up, x, sizeof x), memcpy(down, x, sizeof x);
    up[i] += h, down[i] -= h;
    CHECK_CLOSE((f(up) - f(down)) / (2 * h), want[i], 1e-8);
  }
  return check_done();
}
