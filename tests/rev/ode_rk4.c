// RK4 integration of a damped, driven pendulum over 1000 steps in reverse mode: the stage buffers k1..k4
// and the state are overwritten every step, so the tape must keep each step's values. The gradient with
// respect to the initial angle, the damping and the drive amplitude (active scalars, returned as a
// struct), and with respect to a duplicated array of drive frequencies. Central finite differences
// (h = 1e-6, tolerance 1e-6: a long integration amplifies rounding) and forward tangents along every
// unit direction (tolerance 1e-10).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

typedef struct { double dth, dc, da; } G3;
G3 __parad_autodiff3(void *, ...);
double __parad_fwddiff(void *, ...);

static void rhs(const double *y, double t, double damping, double amp, const double *w, double *dy) {
  dy[0] = y[1];
  dy[1] = -sin(y[0]) - damping * y[1] + amp * (cos(w[0] * t) + 0.5 * sin(w[1] * t));
}

__attribute__((noinline)) static double simulate(double theta0, double damping, double amp, const double *w, int steps) {
  double y[2] = {theta0, 0}, k1[2], k2[2], k3[2], k4[2], tmp[2], h = 0.01;
  for (int s = 0; s < steps; s++) {
    double t = s * h;
    rhs(y, t, damping, amp, w, k1);
    for (int i = 0; i < 2; i++) tmp[i] = y[i] + 0.5 * h * k1[i];
    rhs(tmp, t + 0.5 * h, damping, amp, w, k2);
    for (int i = 0; i < 2; i++) tmp[i] = y[i] + 0.5 * h * k2[i];
    rhs(tmp, t + 0.5 * h, damping, amp, w, k3);
    for (int i = 0; i < 2; i++) tmp[i] = y[i] + h * k3[i];
    rhs(tmp, t + h, damping, amp, w, k4);
    for (int i = 0; i < 2; i++) y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  return y[0] * y[0] + y[1];
}

enum { STEPS = 1000 };
typedef struct { int which; } Ctx;
static double W[2] = {1.3, 0.7};

static double along(void *ctx, double e) {
  int k = ((Ctx *)ctx)->which;
  double w[2] = {W[0] + (k == 3) * e, W[1] + (k == 4) * e};
  return simulate(0.8 + (k == 0) * e, 0.3 + (k == 1) * e, 0.2 + (k == 2) * e, w, STEPS);
}

int main(void) {
  double w[2] = {W[0], W[1]}, dw[2] = {0, 0};
  G3 g = __parad_autodiff3((void *)simulate, 0.8, 0.3, 0.2, w, dw, parad_const, STEPS);
  double got[5] = {g.dth, g.dc, g.da, dw[0], dw[1]};
  for (int k = 0; k < 5; k++) {
    Ctx c = {k};
    CHECK_CLOSE(got[k], fd_central(along, &c, 0, 1e-6), 1e-6);
    double ew[2] = {k == 3, k == 4};
    double t = __parad_fwddiff((void *)simulate, 0.8, (double)(k == 0), 0.3, (double)(k == 1), 0.2, (double)(k == 2),
                               w, ew, parad_const, STEPS);
    CHECK_CLOSE(got[k], t, 1e-10);
  }
  return check_done();
}
