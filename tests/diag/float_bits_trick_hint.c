// A bit trick on an active float (the fast inverse square root of games: the float's bits shifted and
// subtracted from a magic constant, then Newton steps) has no derivative Parad can follow: refused, and
// the message says the way out (a probe found it gave none): a derivative registered for the function,
// as tests/rev/registered_bit_trick.c does. -O2 and -O0, no output written.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -I%S/../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

static float rsq(float x) {
  union {
    float f;
    int i;
  } u;
  u.f = x;
  // CHECK: float_bits_trick_hint.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate integer arithmetic on the bits of an active floating-point value (a bit trick, as a fast inverse square root: register a derivative for the function that does it, __parad_register_gradient_NAME or __parad_register_derivative_NAME) in function 'rsq'
  u.i = 0x5f3759df - (u.i >> 1);
  float y = u.f;
  return y * (1.5f - 0.5f * x * y * y);
}

float f(const float *v) { return v[1] * rsq(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

int main(void) {
  float v[3] = {0.3f, 0.4f, 1.2f}, dv[3] = {0};
  __parad_autodiff((void *)f, v, dv);
  return dv[0] != 0;
}
