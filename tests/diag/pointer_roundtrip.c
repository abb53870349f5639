// A pointer to active memory turned into an integer and back loses its shadow: refused.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <stdint.h>
#include <parad.h>

__attribute__((noinline)) static double aligned_sum(double *x, int n) {
  uintptr_t a = (uintptr_t)x;
  a = (a + 15) & ~(uintptr_t)15;
  // CHECK: pointer_roundtrip.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a pointer rebuilt from the integer address of active memory (inttoptr): its shadow is lost in function 'aligned_sum'
  double *p = (double *)a;
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}

int main(void) {
  double x[8] = {0}, dx[8] = {0};
  return (int)__parad_fwddiff((void *)aligned_sum, x, dx, parad_const, 4);
}
