// Calls to LLVM intrinsics Parad has no derivative of are refused with the reason, at the user's line:
// strict floating point (#pragma STDC FENV_ACCESS ON, -frounding-math), which clang writes as constrained
// intrinsics, and x86 vector intrinsics (immintrin.h; a permutation chosen at run time: the estimates
// _mm256_rcp_ps and _mm256_rsqrt_ps have rules now). They were refused as calls to a function "which no
// file of the program defines", with the advice to register a gradient under a name with dots in it; and
// at -O0 the x86 one had no file:line (immintrin.h's helpers carry no locations). No output file.
// RUN: rm -f %t && not %parad-cc %cflags -DSTRICT %s -o %t 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: not %parad-cc %cflags -frounding-math %s -o %t 2>&1 | FileCheck %s --check-prefix=ROUNDING
// RUN: not %parad-cc %cflags -mavx -DVECTOR %s -o %t 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: not %parad-cc -O0 -I%S/../include -mavx -DVECTOR %s -o %t 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: test ! -e %t
// STRICT: intrinsic_refusals.c:[[# @LINE + 11]]:{{[0-9]+}}: error: cannot differentiate 'llvm.experimental.constrained.fmul.f64' with an active argument (#1): strict floating point (-frounding-math, -ffp-model=strict, -ffp-exception-behavior=strict or maytrap, #pragma STDC FENV_ACCESS ON) is not differentiated: build the code derivatives reach without it in function 'cube'
// ROUNDING: error: cannot differentiate 'llvm.experimental.constrained.fmul.f64' with an active argument (#1): strict floating point
// VECTOR: intrinsic_refusals.c:[[# @LINE + 14]]:{{[0-9]+}}: error: cannot differentiate 'llvm.x86.avx.vpermilvar.ps.256' with an active argument (#1): Parad has no derivative of this target's vector intrinsics
#include <parad.h>
#ifdef VECTOR
#include <immintrin.h>
#endif

#ifdef STRICT
#pragma STDC FENV_ACCESS ON
#endif
static double cube(double x) { return x * x * 3.0; }

#ifdef VECTOR
static double clipped_sum(const float *x, const int *order) {
  float t[8];
  _mm256_storeu_ps(t, _mm256_permutevar_ps(_mm256_loadu_ps(x), _mm256_loadu_si256((const __m256i *)order)));
  return t[0] + t[1] + t[2] + t[3];
}
#endif

int main(void) {
#ifdef VECTOR
  float x[8] = {0.1f, 2, 0.3f, 4, 1, 1, 1, 1}, dx[8] = {0};
  int order[8] = {3, 2, 1, 0, 0, 1, 2, 3};
  __parad_autodiff((void *)clipped_sum, x, dx, parad_const, order);
#endif
  return (int)__parad_autodiff((void *)cube, 2.0);
}
