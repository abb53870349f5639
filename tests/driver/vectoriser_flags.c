// -fno-vectorize and -fno-slp-vectorize are honoured, as clang honours them. LLVM 19's in-process -O2
// pipeline vectorised loops and ran the SLP vectoriser whatever the pass builder's options said, so the
// flags changed nothing in files that ask for derivatives: `scale`'s loop and `pair`'s two updates below
// were vectorised with them as without them. The program checks its gradient against the analytic one
// (1e-13), built with the flags and without.
// RUN: %parad-cc -O2 -fno-slp-vectorize -I%S/../include -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=NOSLP,LOOPS
// RUN: %parad-cc -O2 -fno-vectorize -I%S/../include -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=SLP,NOLOOPS
// RUN: %parad-cc -O2 -I%S/../include -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=SLP,LOOPS
// RUN: %parad-cc -O2 -fno-vectorize -fno-slp-vectorize -I%S/../include %s -o %t && %t
// RUN: %parad-cc -O2 -I%S/../include %s -o %t2 && %t2
// NOSLP-LABEL: define {{.*}} @pair(
// NOSLP-NOT: x double>
// NOSLP: ret void
// SLP-LABEL: define {{.*}} @pair(
// SLP: <2 x double>
// NOLOOPS-LABEL: define {{.*}} @scale(
// NOLOOPS-NOT: x double>
// NOLOOPS: ret void
// LOOPS-LABEL: define {{.*}} @scale(
// LOOPS: {{<[0-9]+ x double>}}
#include "check.h"

void __parad_autodiff(void *, ...);

__attribute__((noinline)) void pair(double *restrict a, const double *restrict b) {
  a[0] = b[0] * 2 + b[1];
  a[1] = b[1] * 2 + b[0];
}

__attribute__((noinline)) void scale(double *restrict a, const double *restrict b, int n) {
  for (int i = 0; i < n; i++) a[i] = b[i] * 2.5 + 1;
}

static void objective(const double *x, double *y) {
  double a[2], c[64], s = 0;
  pair(a, x);
  scale(c, x + 2, 64);
  for (int i = 0; i < 64; i++) s += c[i] * c[i];
  *y = a[0] * a[0] + 3 * a[1] + s;
}

int main(void) {
  double x[66], dx[66] = {0}, y = 0, dy = 1;
  for (int i = 0; i < 66; i++) x[i] = 0.01 * i - 0.3;
  __parad_autodiff((void *)objective, x, dx, &y, &dy);
  double a0 = 2 * x[0] + x[1]; /* y = a0^2 + 3 a1 + sum (2.5 x_i + 1)^2, a0 = 2 x0 + x1, a1 = 2 x1 + x0 */
  CHECK_CLOSE(dx[0], 2 * a0 * 2 + 3, 1e-13);
  CHECK_CLOSE(dx[1], 2 * a0 + 6, 1e-13);
  for (int i = 2; i < 66; i++) CHECK_CLOSE(dx[i], 2 * (2.5 * x[i] + 1) * 2.5, 1e-13);
  return check_done();
}
