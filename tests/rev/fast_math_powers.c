// Integer powers under -ffast-math: clang makes pow(s, 6) llvm.powi(s, 6), then multiplications. Its
// partial derivative was 6 pow(s, 5.0), a call of libm's pow per element without the primal's fast-math
// flags (a Lennard-Jones energy's gradient 19-29 times its primal, 3.9 now): the partial is
// n powi(s, n - 1) now, and a rule's operations take the flags of the call they differentiate.
//   lj:     sum_k (sigma2 / r2_k)^6 - (sigma2 / r2_k)^3, w.r.t. r2 and sigma2;
//   powers: sum_i x_i^n for a run-time n (0, 1, -2, 5: __builtin_powi), w.r.t. x.
// Gradients against the analytic ones (1e-10: fast-math reassociates) and tangents (1e-10), at -O2 and
// -O2 -ffast-math, -O0 -ffast-math; the fast-math gradient's IR calls no llvm.pow.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc %cflags -ffast-math %s -o %tf -lm && %tf
// RUN: %parad-cc -O0 -ffast-math -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags -ffast-math -S -emit-llvm %s -o - | FileCheck %s
// CHECK-NOT: @llvm.pow.
// CHECK-NOT: @pow(
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { M = 40 };

__attribute__((noinline)) double lj(const double *r2, int m, double sigma2) {
  double e = 0;
  for (int k = 0; k < m; k++) {
    double s = pow(sigma2 / r2[k], 6), t = pow(sigma2 / r2[k], 3);
    e += s - t;
  }
  return e;
}

__attribute__((noinline)) double powers(const double *x, int m, int n) {
  double e = 0;
  for (int i = 0; i < m; i++) e += __builtin_powi(x[i], n);
  return e;
}

int main(void) {
  double r2[M], dr2[M] = {0}, v[M] = {0};
  for (int k = 0; k < M; k++) r2[k] = 1.6 + 0.5 * sin(0.37 * k);
  const double sigma2 = 1.1;
  double dsigma2 = __parad_autodiff((void *)lj, r2, dr2, parad_const, M, sigma2);
  double want_sigma2 = 0;
  for (int k = 0; k < M; k++) {
    double q = sigma2 / r2[k];
    /* d/dr2 of q^6 - q^3 = (6 q^5 - 3 q^2) (-q / r2) */
    CHECK_CLOSE(dr2[k], (6 * pow(q, 5) - 3 * pow(q, 2)) * (-q / r2[k]), 1e-10);
    want_sigma2 += (6 * pow(q, 5) - 3 * pow(q, 2)) / r2[k];
  }
  CHECK_CLOSE(dsigma2, want_sigma2, 1e-10);
  for (int k = 0; k < M; k += 7) {
    v[k] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)lj, r2, v, parad_const, M, sigma2, 0.0), dr2[k], 1e-10);
    v[k] = 0;
  }

  static const int ns[4] = {0, 1, -2, 5};
  double x[M], dx[M];
  for (int i = 0; i < M; i++) x[i] = 0.8 + 0.3 * cos(0.5 * i);
  for (int c = 0; c < 4; c++) {
    int n = ns[c];
    for (int i = 0; i < M; i++) dx[i] = 0;
    __parad_autodiff((void *)powers, x, dx, parad_const, M, parad_const, n);
    for (int i = 0; i < M; i++) CHECK_CLOSE(dx[i], n ? n * pow(x[i], n - 1) : 0, 1e-10);
    v[3] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)powers, x, v, parad_const, M, parad_const, n), dx[3], 1e-10);
    v[3] = 0;
  }
  return check_done();
}
