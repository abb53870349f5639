// An object whose derivative waits for the link (its function is in another file), linked by plain clang:
// the link still fails, but GNU ld now prints why before the "undefined reference to `__parad_autodiff'"
// (a .gnu.warning section the deferred object carries), where the undefined reference alone did not say
// to link with parad-cc. Linked by parad-cc the same objects give the derivative (against the analytic
// one, 1e-12), and the program object made at the link carries no reference the note would fire on.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %parad-cc -O2 -c %S/Inputs/thin/cubed.c -o cubed.o
// RUN: %parad-cc -O2 -I%S/../include -c %s -o main.o
// RUN: not %clang main.o cubed.o -o plain 2>&1 | FileCheck %s
// RUN: %parad-cc main.o cubed.o -o prog 2>&1 | not grep warning && ./prog
// CHECK: warning: this object's derivatives are made when the program is linked: link it with parad-cc
// CHECK: undefined reference to `__parad_autodiff'
#include "check.h"

double cubed(double x);
double __parad_autodiff(void *, ...);

int main(void) {
  CHECK_CLOSE(__parad_autodiff((void *)cubed, 1.5), 3 * 1.5 * 1.5, 1e-12);
  return check_done();
}
