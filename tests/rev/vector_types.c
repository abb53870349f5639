// GCC vector extensions in reverse mode: arrays of 4-wide double vectors (typedef double v4 with
// vector_size(32)) loaded, multiplied, added lane-wise, shuffled with __builtin_shufflevector and
// reduced; the adjoints are vectors too and must land lane by lane in the shadow. Analytic gradient
// (tolerance 1e-12, rounding only) and forward tangents along every unit direction (tolerance 1e-12),
// at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

typedef double v4 __attribute__((vector_size(32)));

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double vdot(const v4 *a, const v4 *b, int n) {
  v4 acc = {0, 0, 0, 0};
  for (int i = 0; i < n; i++) {
    v4 p = a[i] * b[i];
    v4 r = __builtin_shufflevector(a[i], a[i], 3, 2, 1, 0); /* reversed lanes */
    acc += p + r * r * 0.5;
  }
  return acc[0] + 2 * acc[1] + 3 * acc[2] + 4 * acc[3];
}

enum { N = 3, L = 4 * N };

int main(void) {
  v4 a[N], b[N], da[N], db[N];
  double *pa = (double *)a, *pb = (double *)b, *pda = (double *)da, *pdb = (double *)db;
  for (int i = 0; i < L; i++) pa[i] = sin(0.7 * i) + 0.2, pb[i] = cos(1.3 * i), pda[i] = pdb[i] = 0;
  __parad_autodiff((void *)vdot, a, da, b, db, parad_const, N);
  for (int k = 0; k < L; k++) {
    int lane = k % 4, mirror = 3 - lane;
    /* a's lane contributes a*b with weight lane+1 and, reversed into lane `mirror`, r^2/2 with weight mirror+1 */
    CHECK_CLOSE(pda[k], (lane + 1) * pb[k] + (mirror + 1) * pa[k], 1e-12);
    CHECK_CLOSE(pdb[k], (lane + 1) * pa[k], 1e-12);
  }
  for (int k = 0; k < 2 * L; k++) {
    v4 ea[N], eb[N];
    for (int i = 0; i < L; i++) ((double *)ea)[i] = i == k, ((double *)eb)[i] = i + L == k;
    double got = k < L ? pda[k] : pdb[k - L];
    CHECK_CLOSE(got, __parad_fwddiff((void *)vdot, a, ea, b, eb, parad_const, N), 1e-12);
  }
  return check_done();
}
