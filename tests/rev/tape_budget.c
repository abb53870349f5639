// The tape budget: parad_set_tape_limit(bytes) or PARAD_TAPE_LIMIT (bytes with K, M or G) caps what all
// reverse-mode tapes hold at once. A time loop whose forward sweep records 24 bytes per step at -O2
// (x <- x + dt sin(x) c_t for 200,000 steps: 4.8 MB): with no budget, or one above the tape, the
// gradient equals the one computed step by step by hand (1e-12); under a budget the program stops
// with the figures (exit 70) rather than give a gradient; 0 is no budget, as parad.h says (it was refused
// as no size). Parad does not yet checkpoint to stay under it.
// RUN: %parad-cc %cflags %s -o %t -lm
// RUN: %t && env PARAD_TAPE_LIMIT=64M %t && env PARAD_TAPE_LIMIT=1G %t && env PARAD_TAPE_LIMIT=65536K %t
// RUN: env PARAD_TAPE_LIMIT=0 %t
// RUN: env PARAD_TAPE_LIMIT=256K not %t 2>&1 | FileCheck %s
// RUN: not %t 300000 2>&1 | FileCheck %s
// RUN: env PARAD_TAPE_LIMIT=256K %t 0
// RUN: env PARAD_TAPE_LIMIT=lots not %t 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: parad runtime: the reverse-mode tapes would hold {{[0-9]+}} bytes, over the tape budget of {{(262144|300000)}} bytes
// BAD: parad runtime: PARAD_TAPE_LIMIT=lots is not a size
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);

enum { STEPS = 200000 };

static double run(double x, const double *c) {
  for (int t = 0; t < STEPS; t++) x = x + 1e-5 * sin(x) * c[t % 7];
  return x;
}

int main(int argc, char **argv) {
  if (argc > 1) parad_set_tape_limit((size_t)atoll(argv[1])); /* 0: no budget, whatever the environment says */
  double c[7], dc[7] = {0}, x0 = 0.8;
  for (int k = 0; k < 7; k++) c[k] = 1 + 0.1 * k;
  double dx = __parad_autodiff((void *)run, x0, c, dc);
  /* by hand: x_{t+1} = x_t + h sin(x_t) c_t, dx_{t+1}/dx_t = 1 + h cos(x_t) c_t */
  double *xs = malloc(sizeof *xs * (STEPS + 1)), g = 1, gc[7] = {0};
  xs[0] = x0;
  for (int t = 0; t < STEPS; t++) xs[t + 1] = xs[t] + 1e-5 * sin(xs[t]) * c[t % 7];
  for (int t = STEPS - 1; t >= 0; t--) {
    gc[t % 7] += g * 1e-5 * sin(xs[t]);
    g *= 1 + 1e-5 * cos(xs[t]) * c[t % 7];
  }
  CHECK_CLOSE(dx, g, 1e-12);
  for (int k = 0; k < 7; k++) CHECK_CLOSE(dc[k], gc[k], 1e-12);
  free(xs);
  return check_done();
}
