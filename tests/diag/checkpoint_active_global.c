// A checkpointed loop whose steps read a global the code before the loop wrote with derivatives: the
// global's shadow is not among the loop's snapshots (gradients were wrong when this was let through).
// Refused at the access, with what to do. A global the steps only read that nothing active is stored into
// (a bound set by the program, coefficients) is fine: tests/rev/checkpoint_globals.c, checkpoint_ode.c.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t -lm 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <math.h>
#include <stdlib.h>

double __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);

enum { M = 16, STEPS = 100 };
static double coefs[M];

static double f(const double *x) {
  double *u = malloc(M * sizeof *u);
  for (int i = 0; i < M; i++) coefs[i] = 0.05 * x[(i + 1) % M], u[i] = x[i];
  for (int t = 0; t < STEPS; t++) {
    __parad_checkpoint_loop();
    // CHECK: checkpoint_active_global.c:[[@LINE+1]]:{{[0-9]+}}: error: the global variable 'coefs', which holds derivatives (pass it to the loop through a pointer) inside a loop checkpointed with __parad_checkpoint_loop() is not supported yet in function 'f'
    for (int i = 1; i < M; i++) u[i] += coefs[i] * sin(u[i - 1]);
  }
  double s = u[M - 1];
  free(u);
  return s;
}

int main(void) {
  double x[M] = {0}, g[M] = {0};
  __parad_autodiff((void *)f, x, g);
  return 0;
}
