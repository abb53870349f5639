// Calls between functions of the file: one callee used with different activity patterns (active in one
// argument, in the other, in both, in neither), and a helper that writes through a pointer.
// Analytic derivatives (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc %cflags -S -emit-llvm %s -o - | FileCheck %s
// The constant call stays a call of the original function, once inlining is kept out of the way:
// CHECK-NOT: error
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double weight(double a, double b) { return a * exp(b); }
__attribute__((noinline)) static void store_sq(double *out, double v) { *out = v * v; }

__attribute__((noinline)) static double f(double x, double y) {
  double s = weight(x, 1.0) + weight(2.0, y) + weight(x, y) + weight(3.0, 0.5);
  double t;
  store_sq(&t, s);
  return t;
}

int main(void) {
  double x = 0.7, y = -0.4;
  double s = x * exp(1.0) + 2 * exp(y) + x * exp(y) + 3 * exp(0.5);
  CHECK_CLOSE(__parad_fwddiff((void *)f, x, 1.0, y, 0.0), 2 * s * (exp(1.0) + exp(y)), 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)f, x, 0.0, y, 1.0), 2 * s * (2 * exp(y) + x * exp(y)), 1e-12);
  return check_done();
}
