/* One step of a 1-D heat equation with a nonlinear source, in place. */
#include <math.h>
#include "solver.h"

void step(double *u, int n, double k) {
  for (int i = 1; i < n - 1; i++) u[i] += k * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * sin(u[i]);
}
