// Data-dependent branches, a switch and a select in reverse mode: the reverse sweep walks back the path the
// forward sweep took. Analytic derivatives (tolerance 1e-12), forward tangents, at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
typedef struct { double dx, dlo, dhi; } G3;
G3 __parad_autodiff3(void *, ...);

__attribute__((noinline)) static double piecewise(double x) {
  if (x < -1) return -x * x;
  else if (x < 1) return sin(x);
  return exp(x - 1) + x;
}

__attribute__((noinline)) static double by_case(double x, int k) {
  switch (k) {
  case 0: return x * x;
  case 1: return x * x * x;
  case 2: return 1 / x;
  case 7: return log(x);
  default: return 2 * x;
  }
}

__attribute__((noinline)) static double clamp_sq(double x, double lo, double hi) {
  double y = x < lo ? lo : x > hi ? hi : x;
  return y * y;
}

int main(void) {
  double xs[] = {-2.5, -0.3, 0.4, 1.5, 3.0};
  for (int i = 0; i < 5; i++) {
    double x = xs[i];
    double want = x < -1 ? -2 * x : x < 1 ? cos(x) : exp(x - 1) + 1;
    CHECK_CLOSE(__parad_autodiff((void *)piecewise, x), want, 1e-12);
  }
  double x = 1.7;
  for (int k = 0; k < 8; k++)
    CHECK_CLOSE(__parad_autodiff((void *)by_case, x, k), __parad_fwddiff((void *)by_case, x, 1.0, k), 1e-12);
  CHECK_CLOSE(__parad_autodiff((void *)by_case, x, 7), 1 / x, 1e-12);
  double pts[4][3] = {{0.5, 0, 1}, {-3, -1, 1}, {3, -1, 1.5}, {0.2, 0.3, 0.9}};
  for (int i = 0; i < 4; i++) {
    G3 g = __parad_autodiff3((void *)clamp_sq, pts[i][0], pts[i][1], pts[i][2]);
    CHECK_CLOSE(g.dx, __parad_fwddiff((void *)clamp_sq, pts[i][0], 1.0, pts[i][1], 0.0, pts[i][2], 0.0), 1e-12);
    CHECK_CLOSE(g.dlo, __parad_fwddiff((void *)clamp_sq, pts[i][0], 0.0, pts[i][1], 1.0, pts[i][2], 0.0), 1e-12);
    CHECK_CLOSE(g.dhi, __parad_fwddiff((void *)clamp_sq, pts[i][0], 0.0, pts[i][1], 0.0, pts[i][2], 1.0), 1e-12);
  }
  return check_done();
}
