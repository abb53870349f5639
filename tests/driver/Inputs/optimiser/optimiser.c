/* A small optimisation library, compiled on its own: it is given the objective as a pointer and asks
 * for its gradient and for directional derivatives. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "optimiser.h"
#include "parad.h"

void objective_gradient(objective f, const double *x, double *g, int n) {
  memset(g, 0, sizeof(double) * n);
  __parad_autodiff((void *)f, x, g, parad_const, n);
}

double directional(objective f, const double *x, const double *v, int n) {
  return __parad_fwddiff((void *)f, x, v, parad_const, n);
}

/* steepest descent with Armijo backtracking; returns the final objective */
double descend(objective f, double *x, int n, int iterations) {
  double *g = malloc(sizeof(double) * n), *trial = malloc(sizeof(double) * n);
  double fx = f(x, n);
  for (int it = 0; it < iterations; it++) {
    objective_gradient(f, x, g, n);
    double gg = 0, step = 1;
    for (int i = 0; i < n; i++) gg += g[i] * g[i];
    if (gg < 1e-30) break;
    for (int tries = 0; tries < 50; tries++, step /= 2) {
      for (int i = 0; i < n; i++) trial[i] = x[i] - step * g[i];
      double ft = f(trial, n);
      if (ft <= fx - 1e-4 * step * gg) {
        memcpy(x, trial, sizeof(double) * n);
        fx = ft;
        break;
      }
    }
  }
  free(g);
  free(trial);
  return fx;
}
