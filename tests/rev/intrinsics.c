// LLVM intrinsics in reverse mode: with -fno-math-errno clang emits llvm.sin, llvm.pow, llvm.fabs, llvm.minnum,
// llvm.copysign, llvm.floor, ... instead of libm calls, and with -ffp-contract=on a*b+c becomes
// llvm.fmuladd. One function using them all, and a loop over an array with fmuladd accumulations.
// Analytic gradients (tolerance 1e-11: the sum has many terms of size up to ~10) and forward tangents
// along each unit direction (tolerance 1e-12).
// RUN: %parad-cc %cflags -fno-math-errno -ffp-contract=on %s -o %t && %t
// RUN: %parad-cc %cflags -fno-math-errno -ffp-contract=on -S -emit-llvm %s -o - | FileCheck %s
// CHECK: @llvm.fmuladd.f64
#include <math.h>
#include "check.h"

typedef struct { double dx, dy; } G2;
G2 __parad_autodiff2(void *, ...);
void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double f(double x, double y) {
  return sin(x) * cos(y) + exp(x * y) + log(x) + sqrt(x + y) + pow(x, y) + exp2(y) + log2(x) + log10(y) +
         fabs(x - 3) + fmin(x, y) + fmax(x, 2 * y) + copysign(x, -y) + floor(x) + ceil(y) + trunc(x) +
         round(y) + fma(x, y, x) + x * y + 1.5 + __builtin_powi(x, 3);
}

static double dfdx(double x, double y) {
  return cos(x) * cos(y) + y * exp(x * y) + 1 / x + 0.5 / sqrt(x + y) + y * pow(x, y - 1) +
         1 / (x * log(2.0)) + (x - 3 < 0 ? -1 : 1) + (x < y ? 1 : 0) + (x >= 2 * y ? 1 : 0) +
         (y > 0 ? -1 : 1) * (x < 0 ? -1 : 1) + (y + 1) + y + 3 * x * x;
}

static double dfdy(double x, double y) {
  return -sin(x) * sin(y) + x * exp(x * y) + 0.5 / sqrt(x + y) + pow(x, y) * log(x) + exp2(y) * log(2.0) +
         1 / (y * log(10.0)) + (y < x ? 1 : 0) + (x < 2 * y ? 2 : 0) + x + x;
}

__attribute__((noinline)) static double dotpoly(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s = s * 0.5 + a[i] * b[i] + fabs(a[i]) * sqrt(b[i] * b[i] + 1);
  return s;
}

int main(void) {
  double pts[][2] = {{1.3, 0.7}, {0.4, 2.1}, {2.5, 1.2}};
  for (int i = 0; i < 3; i++) {
    double x = pts[i][0], y = pts[i][1];
    G2 g = __parad_autodiff2((void *)f, x, y);
    CHECK_CLOSE(g.dx, dfdx(x, y), 1e-11);
    CHECK_CLOSE(g.dy, dfdy(x, y), 1e-11);
    CHECK_CLOSE(g.dx, __parad_fwddiff((void *)f, x, 1.0, y, 0.0), 1e-12);
    CHECK_CLOSE(g.dy, __parad_fwddiff((void *)f, x, 0.0, y, 1.0), 1e-12);
  }
  enum { N = 6 };
  double a[N] = {0.5, -1.5, 2, -0.25, 1, 3}, b[N] = {1, 2, -0.5, 0.75, -2, 0.1}, da[N] = {0}, db[N] = {0};
  __parad_autodiff((void *)dotpoly, a, da, b, db, parad_const, N);
  for (int k = 0; k < N; k++) {
    double w = pow(0.5, N - 1 - k), r = sqrt(b[k] * b[k] + 1);
    CHECK_CLOSE(da[k], w * (b[k] + (a[k] < 0 ? -1 : 1) * r), 1e-12);
    CHECK_CLOSE(db[k], w * (a[k] + fabs(a[k]) * b[k] / r), 1e-12);
    double e[N], z[N] = {0};
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(da[k], __parad_fwddiff((void *)dotpoly, a, e, b, z, parad_const, N), 1e-12);
    CHECK_CLOSE(db[k], __parad_fwddiff((void *)dotpoly, a, z, b, e, parad_const, N), 1e-12);
  }
  return check_done();
}
