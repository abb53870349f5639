// A two-layer perceptron with ReLU activations (fmax against 0) and a squared-error loss over a batch,
// in reverse mode, with the hidden activations kept in a local array overwritten for every sample. The
// gradients with respect to all weights and biases (one parameter array) against hand-written
// backpropagation (tolerance 1e-12, rounding only) and against the forward tangent along every unit
// direction (tolerance 1e-12); the inputs are placed away from the ReLU kinks.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { IN = 3, HID = 5, OUT = 2, BATCH = 6 };
enum { W1 = 0, B1 = W1 + HID * IN, W2 = B1 + HID, B2 = W2 + OUT * HID, NP = B2 + OUT };

__attribute__((noinline)) static double loss(const double *p, const double *x, const double *y, int batch) {
  double h[HID], l = 0;
  for (int s = 0; s < batch; s++) {
    const double *xs = x + s * IN;
    for (int j = 0; j < HID; j++) {
      double a = p[B1 + j];
      for (int i = 0; i < IN; i++) a += p[W1 + j * IN + i] * xs[i];
      h[j] = fmax(a, 0.0);
    }
    for (int o = 0; o < OUT; o++) {
      double z = p[B2 + o];
      for (int j = 0; j < HID; j++) z += p[W2 + o * HID + j] * h[j];
      double r = z - y[s * OUT + o];
      l += r * r;
    }
  }
  return l / batch;
}

static void backprop(const double *p, const double *x, const double *y, int batch, double *g) {
  for (int k = 0; k < NP; k++) g[k] = 0;
  for (int s = 0; s < batch; s++) {
    const double *xs = x + s * IN;
    double a[HID], h[HID], dh[HID] = {0};
    for (int j = 0; j < HID; j++) {
      a[j] = p[B1 + j];
      for (int i = 0; i < IN; i++) a[j] += p[W1 + j * IN + i] * xs[i];
      h[j] = a[j] > 0 ? a[j] : 0;
    }
    for (int o = 0; o < OUT; o++) {
      double z = p[B2 + o];
      for (int j = 0; j < HID; j++) z += p[W2 + o * HID + j] * h[j];
      double dz = 2 * (z - y[s * OUT + o]) / batch;
      g[B2 + o] += dz;
      for (int j = 0; j < HID; j++) g[W2 + o * HID + j] += dz * h[j], dh[j] += dz * p[W2 + o * HID + j];
    }
    for (int j = 0; j < HID; j++) {
      double da = a[j] > 0 ? dh[j] : 0;
      g[B1 + j] += da;
      for (int i = 0; i < IN; i++) g[W1 + j * IN + i] += da * xs[i];
    }
  }
}

int main(void) {
  double p[NP], dp[NP] = {0}, x[BATCH * IN], y[BATCH * OUT], want[NP], e[NP];
  for (int k = 0; k < NP; k++) p[k] = sin(1.7 * k + 0.5) * 0.8;
  for (int i = 0; i < BATCH * IN; i++) x[i] = cos(0.9 * i) + 0.1;
  for (int i = 0; i < BATCH * OUT; i++) y[i] = 0.3 * i - 1;
  __parad_autodiff((void *)loss, p, dp, parad_const, x, parad_const, y, parad_const, BATCH);
  backprop(p, x, y, BATCH, want);
  for (int k = 0; k < NP; k++) {
    CHECK_CLOSE(dp[k], want[k], 1e-12);
    for (int i = 0; i < NP; i++) e[i] = i == k;
    CHECK_CLOSE(dp[k], __parad_fwddiff((void *)loss, p, e, parad_const, x, parad_const, y, parad_const, BATCH), 1e-12);
  }
  return check_done();
}
