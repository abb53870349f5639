// A pointer argument passed constant (no shadow) to a function with a checkpointed loop whose steps read
// floats through it is refused where the loop's steps keep it, at -O2 and -O0, with no output written, when
// another differentiated function calls that function too: its derivative gets the pointer's shadow from
// its own caller, so the steps could not know whether there is one. (Where every request passes it
// constant and no other derivative calls the function, the steps take it as constant:
// omp/checkpoint_indexed.)
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -I%S/../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

double coefficients(const double *w, double *u, int n) {
  for (int t = 0; t < n; t++) {
    // CHECK: checkpoint_constant.c:[[@LINE+1]]:{{[0-9]+}}: error: the pointer stored here into memory with derivatives needs a shadow for memory that has none: parameter 1 of 'coefficients', passed as constant; pass it with parad_dup and a shadow in function 'coefficients'
    __parad_checkpoint_loop();
    u[0] = u[0] * w[0] + w[1];
  }
  return u[0];
}

double scaled(const double *w, double *u, int n) { return 2 * coefficients(w, u, n); }

int main(void) {
  double w[2] = {0.5, 1}, u[1] = {1}, du[1] = {0}, dw[2] = {0};
  return (int)(__parad_autodiff((void *)coefficients, parad_const, w, u, du, 3) +
               __parad_autodiff((void *)scaled, w, dw, u, du, 3));
}
