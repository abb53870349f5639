// At -O0 each parameter is kept in a variable: a pointer passed as constant, kept there, and active data
// stored through it, in reverse and forward mode. The message names the store of the active value (as at
// -O2), not the parameter's copy into its variable ("the pointer stored here ... needs a shadow", at the
// line of the loop, before).
// RUN: rm -f %t && not %parad-cc -O0 -I%S/../../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: rm -f %t && not %parad-cc -O0 -DFORWARD -I%S/../../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <math.h>
#include <parad.h>

double f(const double *p, double *scratch, int n) {
  for (int i = 0; i < n; i++)
    // CHECK: store_to_const_arg_O0.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot store an active value into memory without a shadow (parameter 2 of 'f', passed as constant; pass it with parad_dup and a shadow) in function 'f'
    scratch[i] = p[0] * exp(p[1] * i * 0.01);
  double s = 0;
  for (int i = 0; i < n; i++) s += scratch[i] * scratch[i];
  return s;
}

int main(void) {
  double p[2] = {1.5, 0.3}, g[2] = {0}, buf[100];
#ifdef FORWARD
  __parad_fwddiff((void *)f, parad_dup, p, g, parad_const, buf, parad_const, 100);
#else
  __parad_autodiff((void *)f, parad_dup, p, g, parad_const, buf, parad_const, 100);
#endif
  return 0;
}
