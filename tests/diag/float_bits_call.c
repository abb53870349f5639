// A double's bits copied into an unsigned long long and passed to a function that is not inlined, which
// copies them into a heap double: forward mode follows the bits as they move (tests/rev/float_bits_copy.c),
// but reverse mode cannot add adjoints into an integer argument, so it is refused. At -O0 the derivative
// is made from an optimised copy (tests/driver/o0_optimised_copies.c), which inlines the helper (clang
// marks every function noinline at -O0, so the program's own noinline cannot be told apart): the bits no
// longer cross a call, and the gradient, 1, is the program's exit status (it was once silently 0 there).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: %parad-cc -O0 %s -o %t0 && not %t0
#include <stdlib.h>
#include <string.h>
double __parad_autodiff(void *, ...);

__attribute__((noinline)) static double *from_bits(unsigned long long u) {
  double *p = malloc(sizeof *p);
  memcpy(p, &u, sizeof u);
  return p;
}

__attribute__((noinline)) static double f(double x) {
  unsigned long long u;
  memcpy(&u, &x, sizeof u);
  // CHECK: float_bits_call.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate floats moved as integer bits into or out of a call, a return, a struct value or a vector in function 'f'
  double *p = from_bits(u);
  double r = *p;
  free(p);
  return r;
}

int main(void) { return (int)__parad_autodiff((void *)f, 3.0); }
