#include "model.h"

/* Heun's method; f is whatever the caller passes */
void integrate(Rhs f, double *y, const double *p, int steps, double h) {
  double k1[2], k2[2], z[2];
  for (int s = 0; s < steps; s++) {
    f(y, k1, p);
    for (int i = 0; i < 2; i++) z[i] = y[i] + h * k1[i];
    f(z, k2, p);
    for (int i = 0; i < 2; i++) y[i] += 0.5 * h * (k1[i] + k2[i]);
  }
}
