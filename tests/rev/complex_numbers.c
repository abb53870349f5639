// C99 complex numbers: a multiply and a divide (calls of __muldc3 and __divdc3, with C's Annex G checks)
// and cexp, cabs, carg, clog, csqrt, in both modes. J(x) = |z w|^2 + Re(e^z / w) + carg(z) + Im clog(w)
// + Re csqrt(z w), z = x0 + x1 i, w = x2 - 0.25 i. Gradient and tangents against central finite differences
// (h = 1e-6, 1e-7 relative) and each other (1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <complex.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double J(const double *x) {
  double complex z = x[0] + x[1] * I, w = x[2] - 0.25 * I, p = z * w;
  return creal(p * conj(p)) + creal(cexp(z) / w) + carg(z) + cimag(clog(w)) + creal(csqrt(p)) + cabs(z);
}

int main(void) {
  double x[3] = {0.4, 0.9, -1.3}, dx[3] = {0};
  __parad_autodiff((void *)J, x, dx);
  for (int i = 0; i < 3; i++) {
    double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]}, v[3] = {0};
    xp[i] += 1e-6, xm[i] -= 1e-6, v[i] = 1;
    CHECK_CLOSE(dx[i], (J(xp) - J(xm)) / 2e-6, 1e-7);
    CHECK_CLOSE(__parad_fwddiff((void *)J, x, v), dx[i], 1e-12);
  }
  return check_done();
}
