// -fno-slp-vectorize is honoured, as clang honours it. LLVM 19's in-process -O2 pipeline ran the SLP
// vectoriser whatever the pass builder's option said, so the flag changed nothing: `pair` below was
// vectorised with it as without it. The program checks the gradient of its objective against the
// analytic one (1e-13), built with the flag and without.
// RUN: %parad-cc -O2 -fno-slp-vectorize -I%S/../include -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NOSLP
// RUN: %parad-cc -O2 -I%S/../include -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SLP
// RUN: %parad-cc -O2 -fno-slp-vectorize -I%S/../include %s -o %t && %t
// RUN: %parad-cc -O2 -I%S/../include %s -o %t2 && %t2
// NOSLP-LABEL: define {{.*}} @pair(
// NOSLP-NOT: <2 x double>
// NOSLP: ret void
// SLP-LABEL: define {{.*}} @pair(
// SLP: <2 x double>
#include "check.h"

void __parad_autodiff(void *, ...);

__attribute__((noinline)) void pair(double *restrict a, const double *restrict b) {
  a[0] = b[0] * 2 + b[1];
  a[1] = b[1] * 2 + b[0];
}

static void objective(const double *x, double *y) {
  double a[2];
  pair(a, x);
  *y = a[0] * a[0] + 3 * a[1];
}

int main(void) {
  double x[2] = {0.7, -1.3}, dx[2] = {0, 0}, y = 0, dy = 1;
  __parad_autodiff((void *)objective, x, dx, &y, &dy);
  double a0 = 2 * x[0] + x[1]; /* y = a0^2 + 3 a1, a0 = 2 x0 + x1, a1 = 2 x1 + x0 */
  CHECK_CLOSE(dx[0], 2 * a0 * 2 + 3, 1e-13);
  CHECK_CLOSE(dx[1], 2 * a0 + 6, 1e-13);
  return check_done();
}
