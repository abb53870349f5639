// A static helper that calls the function it is given, always the same one, whose body is a single load
// or a constant (`return x[0];`): taken for an OpenMP task's privates map (the same shape at -O0, made a
// direct call and replaced by what it stores), the call was deleted while its value was still used, and
// the compiler crashed. The helper's values, and the gradients of functions that call accessors through
// it, are checked against the values written out and against central differences (h = 1e-6, 1e-7), at
// -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);

static double first(const double *x) { return x[0]; }
static double zero(const double *x) { (void)x; return 0.0; }
static double apply(double (*f)(const double *), const double *x) { return f(x); }
static double apply_zero(double (*f)(const double *), const double *x) { return f(x); }

/* the accessor through the helper inside the differentiated function */
static double loss(const double *x) { return apply(first, x) * sin(x[1]) + apply_zero(zero, x) + x[1] * x[1]; }

int main(void) {
  double x[2] = {0.7, 1.3}, g[2] = {0, 0};
  CHECK_CLOSE(apply(first, x), 0.7, 0);
  CHECK_CLOSE(apply_zero(zero, x), 0.0, 0);
  __parad_autodiff((void *)loss, x, g);
  CHECK_CLOSE(g[0], sin(x[1]), 1e-12);
  CHECK_CLOSE(g[1], x[0] * cos(x[1]) + 2 * x[1], 1e-12);
  for (int j = 0; j < 2; j++) CHECK_CLOSE(g[j], fd_component(loss, x, 2, j, 1e-6), 1e-7);
  return check_done();
}
