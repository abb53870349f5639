// Active data stored through a pointer the caller passed as constant: refused, with the fix.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
void __parad_fwddiff_v(void *, ...);

__attribute__((noinline)) static void f(double x, double *out) {
  // CHECK: store_to_const_arg.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot store an active value into memory without a shadow (parameter 2 of 'f', passed as constant; pass it with parad_dup and a shadow) in function 'f'
  *out = x * x;
}

int main(void) {
  double out;
  __parad_fwddiff_v((void *)f, 1.0, 1.0, parad_const, &out);
  return 0;
}
