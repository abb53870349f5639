// A global written with derivatives in one function and read in another (a callee fills it, its caller
// reads it; or a parallel region and the function around it): a call carries derivatives through its
// arguments and result, and one without active arguments is not differentiated, so such a global gets no
// shadow, and storing active data into it is refused, with why. One function's workspace is fine:
// tests/rev/global_workspace.c. (Found by a program whose region read a global the function had written:
// its gradient was zero before this rule.)
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t -lm 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <math.h>
#include <stdlib.h>

double __parad_autodiff(void *, ...);

static double field[32];

__attribute__((noinline)) static void twice(double *out) {
  for (int i = 0; i < 32; i++) out[i] = 2 * field[i];
}

static double f(const double *x) {
  double *out = malloc(32 * sizeof *out), s = 0;
  // CHECK: global_across_functions.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot store an active value into memory without a shadow (the global variable 'field', which has no shadow: Parad gives one to a global of floats and integers that the file defines and one function uses (not thread-local)) in function 'f'
  for (int i = 0; i < 32; i++) field[i] = sin(x[i % 4]);
  twice(out);
  for (int i = 0; i < 32; i++) s += out[i] * out[i];
  free(out);
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, g[4] = {0};
  __parad_autodiff((void *)f, x, g);
  return 0;
}
