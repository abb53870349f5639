// A function that checks errno after pow, differentiated where the base is 0: pow's exponent partial is
// 0 there (the rule's choice), but the rule computed log(0) on the side it did not take, which set errno
// (and raised divide-by-zero): at -O0 the tangent function took the `errno != 0` branch and returned 0
// (the primal and reverse mode right, no message). The singular operation gets a harmless operand on the
// side not taken now. Also: no floating-point flag the primal does not raise. Gradients and tangents
// against the analytic ones (1e-12), at -O2 (%cflags) and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <errno.h>
#include <fenv.h>
#include <math.h>

#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

/* pow(x0, x1) exp(x2), or 0 where libm reports an error */
static double f(const double *x) {
  errno = 0;
  double a = pow(x[0], x[1]), b = exp(x[2]);
  if (errno != 0) return 0;
  return a * b;
}

int main(void) {
  double x[3] = {0.0, 1.0, 0.5}, g[3] = {0}, want[3] = {exp(0.5), 0, 0};
  feclearexcept(FE_ALL_EXCEPT);
  __parad_autodiff((void *)f, x, g);
  CHECK_CLOSE(fetestexcept(FE_DIVBYZERO | FE_INVALID), 0, 0);
  for (int i = 0; i < 3; i++) {
    double e[3] = {0};
    e[i] = 1;
    CHECK_CLOSE(g[i], want[i], 1e-12);
    feclearexcept(FE_ALL_EXCEPT);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, e), want[i], 1e-12);
    CHECK_CLOSE(fetestexcept(FE_DIVBYZERO | FE_INVALID), 0, 0);
  }
  return check_done();
}
