// C99 complex numbers: a multiply and a divide (calls of __muldc3 and __divdc3, with C's Annex G checks)
// and cexp, cabs, carg, clog, csqrt, in both modes. J(x) = |z w|^2 + Re(e^z / w) + carg(z) + Im clog(w)
// + Re csqrt(z w), z = x0 + x1 i, w = x2 - 0.25 i. Gradient and tangents against central finite differences
// (h = 1e-6, 1e-7 relative) and each other (1e-12), at -O2 and -O0. The same in long double (Jl: __mulxc3,
// __divxc3, and cexpl taking its operand in memory), which was refused.
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

static double Jl(const double *x) {
  long double complex z = x[0] + x[1] * I, w = x[2] - 0.25 * I, p = z * w;
  return (double)(creall(p * conjl(p)) + creall(cexpl(z) / w) + cargl(z) + cimagl(clogl(w)) + creall(csqrtl(p)) + cabsl(z));
}

static void check(double (*f)(const double *)) {
  double x[3] = {0.4, 0.9, -1.3}, dx[3] = {0};
  __parad_autodiff((void *)f, x, dx);
  for (int i = 0; i < 3; i++) {
    double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]}, v[3] = {0};
    xp[i] += 1e-6, xm[i] -= 1e-6, v[i] = 1;
    CHECK_CLOSE(dx[i], (f(xp) - f(xm)) / 2e-6, 1e-7);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), dx[i], 1e-12);
  }
}

int main(void) {
  check(J);
  check(Jl);
  return check_done();
}
