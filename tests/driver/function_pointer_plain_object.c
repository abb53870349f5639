// A derivative that reaches a call through a pointer to a function compiled by plain clang (its object
// carries no IR, so Parad generated no derivative for it) stops with a message naming where the pointer
// led and a non-zero exit, never a wrong derivative; the same program with a function of its own gets
// the right one (d/dx of 2 x^2 = 4 x, tolerance 1e-12).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -c %S/Inputs/plain_callback.c -o %t/plain.o
// RUN: %parad-cc %cflags %s %t/plain.o -o %t/prog
// RUN: %t/prog own
// RUN: not %t/prog plain 2>&1 | FileCheck %s
// CHECK: parad: a derivative reached a call through a function pointer to 'cube' (in {{.*}}prog), for which Parad generated no derivative
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);

typedef double (*Unary)(double);
Unary plain_callback(void);

static double square(double v) { return v * v; }

__attribute__((noinline)) static double twice(Unary f, double x) { return 2 * f(x); }

int main(int argc, char **argv) {
  Unary f = argc > 1 && !strcmp(argv[1], "plain") ? plain_callback() : square;
  double x = 1.5;
  double d = __parad_autodiff((void *)twice, parad_const, f, x);
  CHECK_CLOSE(d, 4 * x, 1e-12);
  return check_done();
}
