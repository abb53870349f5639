// A function returning a struct of two doubles: its tangent is a struct too, returned in registers as
// clang returns the primal. Analytic derivatives (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

typedef struct { double re, im; } Complex;
Complex __parad_fwddiff_c(void *, ...);

__attribute__((noinline)) static Complex cexp_(double re, double im) {
  Complex c = {exp(re) * cos(im), exp(re) * sin(im)};
  return c;
}

int main(void) {
  double re = 0.3, im = 1.2;
  Complex d = __parad_fwddiff_c((void *)cexp_, re, 0.0, im, 1.0); /* d/d im = i e^z */
  CHECK_CLOSE(d.re, -exp(re) * sin(im), 1e-12);
  CHECK_CLOSE(d.im, exp(re) * cos(im), 1e-12);
  return check_done();
}
