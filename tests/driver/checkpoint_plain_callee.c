// A checkpointed loop whose step calls through a pointer to a function compiled by plain clang (its object
// carries no IR: what it writes could not be noted for the snapshots) stops with a message and a non-zero
// exit, never a wrong derivative; the same program with a function of its own gets the gradient of
// sum_t 2 f(x_t), x_{t+1} = x_t + 0.01 f(x_t) (against central differences, h = 1e-6, 1e-6).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -c %S/Inputs/plain_callback.c -o %t/plain.o
// RUN: %parad-cc %cflags %s %t/plain.o -o %t/prog -lm
// RUN: %t/prog own
// RUN: not %t/prog plain 2>&1 | FileCheck %s
// CHECK: parad runtime: checkpointed loop: a step called, through a function pointer, a function of another module or library
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);

typedef double (*Unary)(double);
Unary plain_callback(void);

static double square(double v) { return v * v; }

__attribute__((noinline)) static double run(Unary f, double x) {
  double s = 0;
  for (int t = 0; t < 20; t++) {
    __parad_checkpoint_loop();
    s += 2 * f(x);
    x += 0.01 * f(x);
  }
  return s;
}

int main(int argc, char **argv) {
  Unary f = argc > 1 && !strcmp(argv[1], "plain") ? plain_callback() : square;
  double x = 0.7, h = 1e-6;
  double d = __parad_autodiff((void *)run, parad_const, f, x);
  CHECK_CLOSE(d, (run(f, x + h) - run(f, x - h)) / (2 * h), 1e-6);
  return check_done();
}
