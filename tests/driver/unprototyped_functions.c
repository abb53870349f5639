// f2c's declarations (and K&R C's): functions and function pointers without prototypes.
// - The integrand passed to a quadrature routine through `typedef doublereal (*D_fp)();` (QUADPACK's and
//   RKF45's way): clang calls through it as a variadic function (`double (ptr, ...)`), which matches no
//   function's type, and the call, active, was refused as a call of a variadic function at -O0 and
//   -O1 and up (NR's qromb built at -O0 only where the optimiser made the call direct). Such calls are
//   calls of the type of their arguments now (ad/unprototyped_calls.c).
// - The objective declared `extern doublereal objective_();` and defined in another file: the request was
//   refused as compiled ("cannot differentiate the variadic function"); it waits for the link now, where
//   the definition says what the function takes; linked with an object without IR, the message says so.
// The gradient of I(a, b) = int_0^2 exp(-a t) cos(b t) dt against central differences (h = 1e-5) of its
// closed form (relative 1e-9: the rule's error on 40 panels and the differences' are far below), forward
// against reverse (1e-12); files compiled apart and linked at -O2, in one command at -O1 and -O0.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc %cflags -w -c %s -o %t/main.o && %parad-cc %cflags -w -c %S/Inputs/f2c/integrand.c -o %t/integrand.o
// RUN: %parad-cc %cflags -w -c %S/Inputs/f2c/quadrature.c -o %t/quadrature.o
// RUN: %parad-cc %t/main.o %t/integrand.o %t/quadrature.o -o %t/prog -lm && %t/prog
// RUN: %parad-cc -O1 -w -I%S/../include %s %S/Inputs/f2c/integrand.c %S/Inputs/f2c/quadrature.c -o %t/prog1 -lm && %t/prog1
// RUN: %parad-cc -O0 -w -I%S/../include %s %S/Inputs/f2c/integrand.c %S/Inputs/f2c/quadrature.c -o %t/prog0 -lm && %t/prog0
// The objective's file compiled by plain clang (no IR): refused at the link, with what to do.
// RUN: clang-19 -O2 -w -c %S/Inputs/f2c/integrand.c -o %t/plain.o
// RUN: not %parad-cc %t/main.o %t/plain.o %t/quadrature.o -o %t/refused -lm 2> %t/err && test ! -e %t/refused
// RUN: grep -q "'objective_' is declared without a prototype and defined in no file Parad compiled" %t/err
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef double doublereal;
typedef int integer;
extern doublereal objective_(); /* as f2c declares externals */

/* dI/da, dI/db by central differences of the closed form int_0^2 exp(-a t) cos(b t) dt =
   Re[(1 - exp(-2 (a - i b))) / (a - i b)] */
static void exact(double a, double b, double *d) {
  double h = 1e-5, v[4];
  for (int k = 0; k < 4; k++) {
    double aa = a + (k == 0 ? h : k == 1 ? -h : 0), bb = b + (k == 2 ? h : k == 3 ? -h : 0);
    double e = exp(-2 * aa), re = 1 - e * cos(2 * bb), im = -e * sin(2 * bb), den = aa * aa + bb * bb;
    v[k] = (re * aa - im * bb) / den;
  }
  d[0] = (v[0] - v[1]) / (2 * h), d[1] = (v[2] - v[3]) / (2 * h);
}

int main(void) {
  doublereal p[2] = {0.7, 1.3}, dp[2] = {0, 0};
  integer panels = 40;
  double want[2];
  exact(p[0], p[1], want);
  __parad_autodiff((void *)objective_, p, dp, parad_const, &panels);
  CHECK_CLOSE(dp[0], want[0], 1e-9);
  CHECK_CLOSE(dp[1], want[1], 1e-9);
  for (int k = 0; k < 2; k++) {
    doublereal v[2] = {k == 0, k == 1};
    CHECK_CLOSE(__parad_fwddiff((void *)objective_, p, v, parad_const, &panels), dp[k], 1e-12);
  }
  return check_done();
}
