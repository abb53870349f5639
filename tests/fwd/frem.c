// The frem instruction (fmod without errno): d(x rem y) = dx - trunc(x / y) dy. Analytic (1e-12).
// RUN: %parad-cc %cflags -fno-math-errno %s -o %t && %t
// The program does contain the instruction:
// RUN: %clang %cflags -fno-math-errno -S -emit-llvm %s -o - | FileCheck %s
// CHECK: frem double
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double wrap(double x, double y) { return fmod(x * x, y); }

int main(void) {
  double x = 2.3, y = 1.1;
  CHECK_CLOSE(__parad_fwddiff((void *)wrap, x, 1.0, y, 0.0), 2 * x, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)wrap, x, 0.0, y, 1.0), -trunc(x * x / y), 1e-12);
  return check_done();
}
