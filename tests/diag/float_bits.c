// Integer arithmetic on the bits of an active float (a bit trick) would silently drop the derivative
// once the bits become a float again: refused where they do, at -O0 too (where the bits live in an integer
// variable whose type says nothing of what it holds: there the store of the new bits into it is refused).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 %s -o %t 2>&1 | FileCheck --check-prefix=O0 %s
// RUN: test ! -e %t
#include <stdint.h>
#include <string.h>
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double halve_exponent(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  // O0: float_bits.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate integer arithmetic on the bits of an active floating-point value (a bit trick, as a fast inverse square root: register a derivative for the function that does it, __parad_register_gradient_NAME or __parad_register_derivative_NAME) in function 'halve_exponent'
  bits = (bits >> 1) + 0x1ff8000000000000ull;
  double y;
  // CHECK: float_bits.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate integer arithmetic on the bits of an active floating-point value (a bit trick, as a fast inverse square root: register a derivative for the function that does it, __parad_register_gradient_NAME or __parad_register_derivative_NAME) in function 'halve_exponent'
  memcpy(&y, &bits, sizeof y);
  return y;
}

int main(void) { return (int)__parad_fwddiff((void *)halve_exponent, 4.0, 1.0); }
