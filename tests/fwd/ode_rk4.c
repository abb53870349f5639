// A realistic kernel: an RK4 integration of a damped pendulum over many time steps; the tangent with
// respect to the damping coefficient and to the initial angle, against central finite differences
// (h = 1e-6, tolerance 1e-6).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

static void rhs(const double *y, double damping, double *dy) {
  dy[0] = y[1];
  dy[1] = -sin(y[0]) - damping * y[1];
}

__attribute__((noinline)) static double simulate(double theta0, double damping, int steps) {
  double y[2] = {theta0, 0}, k1[2], k2[2], k3[2], k4[2], t[2], h = 0.01;
  for (int s = 0; s < steps; s++) {
    rhs(y, damping, k1);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k1[i];
    rhs(t, damping, k2);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k2[i];
    rhs(t, damping, k3);
    for (int i = 0; i < 2; i++) t[i] = y[i] + h * k3[i];
    rhs(t, damping, k4);
    for (int i = 0; i < 2; i++) y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  return y[0] * y[0] + y[1];
}

static double by_damping(void *ctx, double c) { return simulate(0.8, c, *(int *)ctx); }
static double by_theta(void *ctx, double th) { return simulate(th, 0.3, *(int *)ctx); }

int main(void) {
  int steps = 1000;
  double dc = __parad_fwddiff((void *)simulate, 0.8, 0.0, 0.3, 1.0, steps);
  double dth = __parad_fwddiff((void *)simulate, 0.8, 1.0, 0.3, 0.0, steps);
  CHECK_CLOSE(dc, fd_central(by_damping, &steps, 0.3, 1e-6), 1e-6);
  CHECK_CLOSE(dth, fd_central(by_theta, &steps, 0.8, 1e-6), 1e-6);
  return check_done();
}
