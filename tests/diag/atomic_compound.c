// A C11 _Atomic double updated with += compiles to a compare-and-swap loop on the double's bits; Parad
// cannot tell which update won, so it refuses the loop and names the supported alternatives.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

__attribute__((noinline)) static double accumulate(_Atomic double *sum, const double *x, int n) {
  // CHECK: atomic_compound.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a compare-and-swap of active data (an _Atomic float updated with +=, for instance); use __atomic_fetch_add or '#pragma omp atomic' in function 'accumulate'
  for (int i = 0; i < n; i++) *sum += x[i] * x[i];
  return *sum * 2;
}

int main(void) {
  _Atomic double s = 1, ds = 0.5;
  double x[3] = {1, 2, 3}, dx[3] = {1, 0.5, 1};
  return (int)__parad_fwddiff((void *)accumulate, &s, &ds, x, dx, parad_const, 3);
}
