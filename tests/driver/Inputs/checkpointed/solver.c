/* A time loop checkpointed with __parad_checkpoint_loop(), whose step is in another file (step.c). */
#include "solver.h"

void __parad_checkpoint_loop(void);

double solve(const double *u0, int n, int steps) {
  double u[64], s = 0;
  for (int i = 0; i < n; i++) u[i] = u0[i];
  for (int t = 0; t < steps; t++) {
    __parad_checkpoint_loop();
    step(u, n, 0.1 + 0.001 * t);
  }
  for (int i = 0; i < n; i++) s += u[i] * u[i] * (i + 1);
  return s;
}
