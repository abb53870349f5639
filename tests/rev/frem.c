// The frem instruction (fmod without errno) in reverse mode: for r = a rem b, da += dr and
// db -= trunc(a / b) dr. A scalar case with both operands active and a loop wrapping phases of an array
// into [0, 2 pi) before a sine. Analytic (tolerance 1e-12, rounding only) and forward tangents along each
// unit direction (tolerance 1e-12).
// RUN: %parad-cc %cflags -fno-math-errno %s -o %t && %t
// The program does contain the instruction:
// RUN: %clang %cflags -fno-math-errno -S -emit-llvm %s -o - | FileCheck %s
// CHECK: frem double
#include <math.h>
#include "check.h"

typedef struct { double dx, dy; } G2;
G2 __parad_autodiff2(void *, ...);
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double wrap(double x, double y) { return fmod(x * x, y) * y; }

__attribute__((noinline)) static double phases(const double *th, int n, double w) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double p = fmod(th[i] * w, 2 * M_PI);
    s += sin(p) * p;
  }
  return s;
}

int main(void) {
  double pts[3][2] = {{2.3, 1.1}, {-1.7, 0.6}, {3.1, -0.9}};
  for (int k = 0; k < 3; k++) {
    double x = pts[k][0], y = pts[k][1];
    G2 g = __parad_autodiff2((void *)wrap, x, y);
    double r = fmod(x * x, y);
    CHECK_CLOSE(g.dx, 2 * x * y, 1e-12);
    CHECK_CLOSE(g.dy, r - trunc(x * x / y) * y, 1e-12);
    CHECK_CLOSE(g.dx, __parad_fwddiff((void *)wrap, x, 1.0, y, 0.0), 1e-12);
    CHECK_CLOSE(g.dy, __parad_fwddiff((void *)wrap, x, 0.0, y, 1.0), 1e-12);
  }
  enum { N = 6 };
  double th[N] = {0.5, 4.2, 7.9, -3.3, 12.1, 2.0}, dth[N] = {0}, e[N], z[N] = {0}, w = 1.7;
  double dw = __parad_autodiff((void *)phases, th, dth, parad_const, N, w);
  double want_w = 0;
  for (int k = 0; k < N; k++) {
    double p = fmod(th[k] * w, 2 * M_PI), dp = cos(p) * p + sin(p);
    CHECK_CLOSE(dth[k], dp * w, 1e-12);
    want_w += dp * th[k];
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(dth[k], __parad_fwddiff((void *)phases, th, e, parad_const, N, w, 0.0), 1e-12);
  }
  CHECK_CLOSE(dw, want_w, 1e-12);
  CHECK_CLOSE(dw, __parad_fwddiff((void *)phases, th, z, parad_const, N, w, 1.0), 1e-12);
  return check_done();
}
