// Floats' bits taken out by one helper, changed by integer arithmetic in a second (the exponent lowered:
// a halving) and made a double again by a third. In forward mode the tangent's bits went through all three
// unchanged and came out as the derivative of something else (1.5 for 3) with no message, at -O0 and
// wherever the helpers stayed calls; now refused where the changed bits become a double again (at -O0
// where the copy is read back). Reverse mode refuses floats' bits through calls already.
// RUN: rm -f %t && not %parad-cc %cflags -DCALLS %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -I%S/../include %s -o %t 2>&1 | FileCheck --check-prefix=O0 %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -I%S/../include -DUNION %s -o %t 2>&1 | FileCheck --check-prefix=UNION %s
// RUN: test ! -e %t
#include <stdint.h>
#include <string.h>
#include "parad.h"

#ifdef CALLS
#define HELPER __attribute__((noinline)) static
#else
#define HELPER static
#endif

HELPER uint64_t bits_of(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

HELPER uint64_t halved(uint64_t u) { return u - (1ull << 52); }

HELPER double from_bits(uint64_t u) {
#ifdef UNION
  union {
    uint64_t u;
    double d;
  } v;
  // UNION: float_bits_through_helpers.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate integer arithmetic on the bits of an active floating-point value (a bit trick, as a fast inverse square root: register a derivative for the function that does it, __parad_register_gradient_NAME or __parad_register_derivative_NAME) in function 'from_bits'
  v.u = u;
  return v.d;
#else
  double d;
  // CHECK: float_bits_through_helpers.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate integer arithmetic on the bits of an active floating-point value (a bit trick, as a fast inverse square root: register a derivative for the function that does it, __parad_register_gradient_NAME or __parad_register_derivative_NAME) in function 'from_bits'
  memcpy(&d, &u, sizeof d);
  // O0: float_bits_through_helpers.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate integer arithmetic on the bits of an active floating-point value (a bit trick, as a fast inverse square root: register a derivative for the function that does it, __parad_register_gradient_NAME or __parad_register_derivative_NAME) in function 'from_bits'
  return d;
#endif
}

static double f(double x) { return from_bits(halved(bits_of(x))) * x; }

int main(void) { return __parad_fwddiff((void *)f, 3.0, 1.0) != 3.0; }
