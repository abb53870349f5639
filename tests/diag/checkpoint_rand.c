// rand() (and srand, random, srandom) inside a checkpointed loop: a recomputed step would draw other
// numbers than the forward run drew, and the reverse sweep would differentiate another trajectory (it
// did, with no message). Refused where it is, at -O2 and -O0, and no output is written.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -I%S/../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <math.h>
#include <parad.h>
#include <stdlib.h>

double simulate(const double *p, int steps) {
  double x = 1, dt = 1.0 / steps;
  for (int t = 0; t < steps; t++) {
    __parad_checkpoint_loop();
    // CHECK: checkpoint_rand.c:[[@LINE+1]]:{{[0-9]+}}: error: a call of 'rand', whose hidden state a recomputed step would draw from again (draw the numbers before the loop, or keep the state in a variable: rand_r) inside a loop checkpointed with __parad_checkpoint_loop() is not supported yet in function 'simulate'
    double z = (double)rand() / RAND_MAX - 0.5;
    x = x - p[0] * x * dt + p[1] * x * sqrt(dt) * z;
  }
  return x * x;
}

void gradient(const double *p, double *g) { __parad_autodiff((void *)simulate, p, g, parad_const, 100); }
