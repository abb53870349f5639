// With -fno-math-errno clang emits LLVM intrinsics (llvm.sin, llvm.pow, llvm.fmuladd, ...) instead of
// libm calls; with -ffp-contract=on a*b+c becomes llvm.fmuladd. Analytic derivatives, tolerance 1e-11.
// RUN: %parad-cc %cflags -fno-math-errno -ffp-contract=on %s -o %t && %t
// RUN: %parad-cc %cflags -fno-math-errno -S -emit-llvm %s -o - | FileCheck %s
// CHECK: @llvm.cos.f64
#include <math.h>
#include "check.h"

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

int main(void) {
  double pts[][2] = {{1.3, 0.7}, {0.4, 2.1}, {2.5, 1.2}};
  for (int i = 0; i < 3; i++) {
    double x = pts[i][0], y = pts[i][1];
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, 1.0, y, 0.0), dfdx(x, y), 1e-11);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, 0.0, y, 1.0), dfdy(x, y), 1e-11);
  }
  return check_done();
}
