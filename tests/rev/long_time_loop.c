// A long time loop (10^5 steps) in reverse mode, to make the tape grow through many chunks: a damped,
// driven Duffing oscillator x'' + c x' + x + 0.1 x^3 = A cos(w t) integrated with semi-implicit Euler
// (dt = 1e-3), the objective the time average of x^2 plus a term on the final state. Every step records
// the values its reverse needs (cos, the cubic); the gradient with respect to (x0, v0, c, A, w) comes back
// as a struct. Central finite differences (h = 1e-6, tolerance 1e-6: 10^5 steps accumulate rounding) and
// forward tangents along every unit direction (tolerance 1e-10).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

typedef struct { double d[5]; } G5;
G5 __parad_autodiff5(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double duffing(double x0, double v0, double c, double A, double w, long steps) {
  double x = x0, v = v0, dt = 1e-3, acc = 0;
  for (long k = 0; k < steps; k++) {
    double t = k * dt;
    double f = A * cos(w * t) - c * v - x - 0.1 * x * x * x;
    v += dt * f;
    x += dt * v;
    acc += x * x;
  }
  return acc / steps + 0.5 * (x * x + v * v);
}

enum { STEPS = 100000 };
static const double P[5] = {0.5, -0.2, 0.3, 0.8, 1.3};

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double p[5];
  for (int i = 0; i < 5; i++) p[i] = P[i] + (i == k) * t;
  return duffing(p[0], p[1], p[2], p[3], p[4], STEPS);
}

int main(void) {
  G5 g = __parad_autodiff5((void *)duffing, P[0], P[1], P[2], P[3], P[4], (long)STEPS);
  for (int k = 0; k < 5; k++) {
    CHECK_CLOSE(g.d[k], fd_central(along, &k, 0, 1e-6), 1e-6);
    double e[5] = {0};
    e[k] = 1;
    double t = __parad_fwddiff((void *)duffing, P[0], e[0], P[1], e[1], P[2], e[2], P[3], e[3], P[4], e[4], (long)STEPS);
    CHECK_CLOSE(g.d[k], t, 1e-10);
  }
  return check_done();
}
