// A request naming a function alias (__attribute__((alias("impl"))), a library's public name for its
// implementation) was refused as "not a function named in this file"; it names the aliased function now.
// Gradient and tangent of f = x0^2 x1 through the alias against the analytic derivative (1e-14), -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

double impl(const double *x) { return x[0] * x[0] * x[1]; }
double model(const double *x) __attribute__((alias("impl")));

int main(void) {
  double x[2] = {0.3, 1.5}, g[2] = {0};
  __parad_autodiff((void *)model, x, g);
  CHECK_CLOSE(g[0], 2 * x[0] * x[1], 1e-14);
  CHECK_CLOSE(g[1], x[0] * x[0], 1e-14);
  double v[2] = {1, 0};
  CHECK_CLOSE(__parad_fwddiff((void *)model, x, v), 2 * x[0] * x[1], 1e-14);
  return check_done();
}
