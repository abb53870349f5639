// A stack slot aligned past malloc's 16 bytes (an AVX vector of 4 doubles at -O0, loaded and stored with
// vmovapd) has a shadow on the heap where a reverse sweep needs it after the forward sweep returned: it was
// given malloc's alignment, and the reverse sweep crashed (segmentation fault) where malloc's block was not
// 32-aligned, which depends on what the heap holds (this program passed with 16 too). It gets the slot's now.
// f = sum_k (k + 1) copysign(sqrt(x_k^2 + 1), y_k), with AVX intrinsics in a helper (copysign on the bits:
// rev/copysign_on_bits.c); the gradient against the analytic one (1e-14) and forward tangents. Only where the
// machine has AVX2.
// RUN: if grep -qw avx2 /proc/cpuinfo; then %parad-cc -O0 -mavx2 -I%S/../include %s -o %t -lm && %t; fi
// RUN: if grep -qw avx2 /proc/cpuinfo; then %parad-cc %cflags -mavx2 %s -o %t2 -lm && %t2; fi
#include <immintrin.h>
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static __m256d signed_norm(__m256d a, __m256d s) {
  __m256d mag = _mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(a, a), _mm256_set1_pd(1.0)));
  __m256d sm = _mm256_set1_pd(-0.0);
  return _mm256_or_pd(_mm256_andnot_pd(sm, mag), _mm256_and_pd(sm, s));
}

double f(const double *x, const double *y) {
  __m256d r = signed_norm(_mm256_loadu_pd(x), _mm256_loadu_pd(y));
  double t[4];
  _mm256_storeu_pd(t, r);
  return t[0] + 2 * t[1] + 3 * t[2] + 4 * t[3];
}

int main(void) {
  double x[4] = {1.5, -1, 0.5, 2}, y[4] = {-1, 2, -3, 4}, g[4] = {0}, gy[4] = {0};
  __parad_autodiff((void *)f, x, g, y, gy);
  for (int k = 0; k < 4; k++) {
    double want = (k + 1) * (y[k] < 0 ? -1 : 1) * x[k] / sqrt(x[k] * x[k] + 1);
    CHECK_CLOSE(g[k], want, 1e-14);
    CHECK_CLOSE(gy[k], 0, 0);
    double v[4] = {0}, vy[4] = {0};
    v[k] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, y, vy), want, 1e-14);
  }
  return check_done();
}
