// Order-preserving integer keys of doubles (a radix sort's trick: flip the sign bit, or all bits of a
// negative) made from the floats' bits and turned back: integer arithmetic on the bits of active floats.
// It gave derivatives of zero with no message wherever the key's arithmetic and its way back met in one
// function without a call between them (inlined at -O2 through an array of keys; at -O0 in the optimised
// copies, and as compiled through the helpers' integer results); now refused at every level.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -I%S/../include %s -o %t 2>&1 | FileCheck --check-prefix=O0 %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -DDIRECT -I%S/../include %s -o %t 2>&1 | FileCheck --check-prefix=O0D %s
// RUN: test ! -e %t
#include <stdint.h>
#include <string.h>
#include "parad.h"

static uint64_t to_key(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return (u >> 63) ? ~u : (u | 0x8000000000000000ull);
}

static double from_key(uint64_t k) {
  uint64_t u = (k >> 63) ? (k & 0x7fffffffffffffffull) : ~k;
  double d;
  // CHECK: float_bits_keys.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate integer arithmetic on the bits of an active floating-point value
  memcpy(&d, &u, sizeof d);
  return d;
}

double f(const double *x, int n) {
  uint64_t k[8];
  double s = 0;
  for (int i = 0; i < n; i++) {
#ifdef DIRECT
    // O0D: float_bits_keys.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate floats moved as integer bits into or out of a call
    double d = from_key(to_key(x[i]));
#else
    // O0: float_bits_keys.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate floats moved as integer bits into or out of a call
    k[i] = to_key(x[i]);
    double d = from_key(k[i]);
#endif
    s += d * d;
  }
  return s;
}

int main(void) {
  double x[2] = {0.5, -3.0}, dx[2] = {0};
  __parad_autodiff((void *)f, x, dx, 2);
  return dx[0] > 0;
}
