// Integer arithmetic on the bits of active floats in vectors (a hand-vectorised log's mantissa: the bits
// masked and or-ed with 1.0's exponent), with GCC's vector extensions and with SSE2 intrinsics: refused
// where the bits become floats again, in both modes, at -O2 and at -O0. Before, an `and` of a vector by a
// constant mask was taken for moving whole bytes (only scalar masks are), and at -O0 the bits kept in a
// vector variable, or returned by a helper as a vector of integers, were not followed: zero derivatives,
// no message (at -O0 with AVX the reverse sweep also crashed on a shadow slot without its alignment). At
// -O0 the intrinsics' helpers hand the SSE2 form's bits over as vectors of integers, refused as such.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc %cflags -DFORWARD %s -o %t 2>&1 | FileCheck %s
// RUN: not %parad-cc -O0 %s -o %t 2>&1 | FileCheck %s --check-prefix=O0
// RUN: test ! -e %t
#include <emmintrin.h>
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef double v2d __attribute__((vector_size(16)));
typedef long long v2l __attribute__((vector_size(16)));

__attribute__((noinline)) static v2d mantissa(v2d x) {
  v2l b = (v2l)x;
  // O0-DAG: float_bits_vectors.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate integer arithmetic on the bits of an active floating-point value
  // CHECK-DAG: float_bits_vectors.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate integer arithmetic on the bits of an active floating-point value
  return (v2d)((b & 0x000FFFFFFFFFFFFFLL) | 0x3FF0000000000000LL);
}

__attribute__((noinline)) static __m128d mantissa_sse(__m128d x) {
  // O0-DAG: float_bits_vectors.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate floats moved as integer bits into or out of a call, a return, a struct value or a vector
  __m128i b = _mm_castpd_si128(x);
  b = _mm_or_si128(_mm_and_si128(b, _mm_set1_epi64x(0x000FFFFFFFFFFFFFLL)), _mm_set1_epi64x(0x3FF0000000000000LL));
  // CHECK-DAG: float_bits_vectors.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate integer arithmetic on the bits of an active floating-point value
  return _mm_castsi128_pd(b);
}

static double f(const double *x) {
  v2d m = mantissa((v2d){3 * x[0], 3 * x[1]});
  double t[2];
  _mm_storeu_pd(t, mantissa_sse(_mm_mul_pd(_mm_loadu_pd(x), _mm_set1_pd(5.0))));
  return m[0] + 2 * m[1] + t[0] + t[1];
}

int main(void) {
  double x[2] = {0.3, 1.1}, d[2] = {0};
#ifdef FORWARD
  return (int)__parad_fwddiff((void *)f, x, d);
#else
  __parad_autodiff((void *)f, x, d);
  return 0;
#endif
}
