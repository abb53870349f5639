// Calls between functions of the file in reverse mode: one callee used with different activity patterns
// inside one function (active in its first argument, in its second, in both, in neither), a helper that
// writes its result through a pointer to a local, and a helper called in a loop whose result feeds the
// next call. Each pattern gets its own augmented and reverse pair. Analytic gradients (tolerance 1e-12,
// rounding only) and forward tangents along each unit direction (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

typedef struct { double dx, dy; } G2;
G2 __parad_autodiff2(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double weight(double a, double b) { return a * exp(b); }
__attribute__((noinline)) static void store_sq(double *out, double v) { *out = v * v; }
__attribute__((noinline)) static double step(double v, double c) { return v * cos(c) + 0.1 * v * v; }

__attribute__((noinline)) static double f(double x, double y) {
  double s = weight(x, 1.0) + weight(2.0, y) + weight(x, y) + weight(3.0, 0.5);
  double t;
  store_sq(&t, s);
  double v = t;
  for (int i = 0; i < 3; i++) v = step(v, i == 1 ? y : 0.3 * i);
  return v;
}

int main(void) {
  double pts[3][2] = {{0.7, -0.4}, {-0.2, 0.3}, {0.1, 0.05}};
  for (int p = 0; p < 3; p++) {
    double x = pts[p][0], y = pts[p][1];
    G2 g = __parad_autodiff2((void *)f, x, y);
    /* by hand: s, t = s^2, then three steps v <- v cos c + 0.1 v^2 */
    double s = x * exp(1.0) + 2 * exp(y) + x * exp(y) + 3 * exp(0.5);
    double dsx = exp(1.0) + exp(y), dsy = 2 * exp(y) + x * exp(y);
    double v = s * s, dvx = 2 * s * dsx, dvy = 2 * s * dsy;
    for (int i = 0; i < 3; i++) {
      double c = i == 1 ? y : 0.3 * i, k = cos(c) + 0.2 * v;
      double nv = v * cos(c) + 0.1 * v * v;
      dvx = k * dvx;
      dvy = k * dvy + (i == 1 ? -v * sin(c) : 0);
      v = nv;
    }
    CHECK_CLOSE(g.dx, dvx, 1e-12);
    CHECK_CLOSE(g.dy, dvy, 1e-12);
    CHECK_CLOSE(g.dx, __parad_fwddiff((void *)f, x, 1.0, y, 0.0), 1e-12);
    CHECK_CLOSE(g.dy, __parad_fwddiff((void *)f, x, 0.0, y, 1.0), 1e-12);
  }
  return check_done();
}
