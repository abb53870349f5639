// Enzyme's floating-point error estimate, written as Enzyme's users write it: each argument followed by its
// error (relative), the result the error of the function's result by Enzyme's rule
//   err(z) = max(|z - z'|, sum_i |dz/da_i err(a_i) a_i / z|)     (z': z with its last bit flipped)
//   cos x at 1e-7, exact input:              one unit in the last place of cos(1e-7), 1.110223e-16;
//   (1 - cos x) / x^2 at 1e-7 (cancellation): 2.2222e-2 (Enzyme's own figures for both);
//   cos x1 with an unused second argument:   the same as cos alone;
//   x / y with err(x) = 1e-10:               1e-10 (a quotient's relative error is its operands');
//   exp x * x through a function of its own, err(x) = 1e-12 at x = 0.5: err(exp x) = 0.5e-12, the
//   product's 1e-12 + 0.5e-12 (calls carry errors as they carry tangents);
//   a sum of squares through an array, err(x) = 1e-8: 2e-8.
// At -O2 and -O0; an OpenMP region in the estimated function is refused, naming it.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: rm -f %t1 && not %parad-cc %cflags -fopenmp -DREGION %s -o %t1 2>&1 | FileCheck %s
// RUN: test ! -e %t1
// CHECK: error: floating-point error estimation cannot follow an OpenMP construct yet
#include <math.h>
#include "check.h"

extern double __enzyme_error_estimate(void *, ...);

static double cosine(double x) { return cos(x); }
static double cancelling(double x) {
  double v1 = cos(x), v2 = 1 - v1, v3 = x * x;
  return v2 / v3;
}
static double first_only(double x1, double x2) { return cos(x1) + 0 * x2; }
static double quotient(double x, double y) { return x / y; }
__attribute__((noinline)) static double grow(double x) { return exp(x); }
static double product(double x) { return grow(x) * x; }
static double squares(double x) {
  double a[3], s = 0;
  for (int i = 0; i < 3; i++) a[i] = x * x;
#ifdef REGION
#pragma omp parallel for reduction(+ : s)
#endif
  for (int i = 0; i < 3; i++) s += a[i];
  return s;
}

int main(void) {
  CHECK_CLOSE(__enzyme_error_estimate((void *)cosine, 1e-7, 0.0) / 1.1102230246251565e-16, 1, 1e-12);
  CHECK_CLOSE(__enzyme_error_estimate((void *)cancelling, 1e-7, 0.0) / 2.2222222222e-2, 1, 1e-4);
  CHECK_CLOSE(__enzyme_error_estimate((void *)first_only, 1e-7, 0.0, 2.7, 0.0) / 1.1102230246251565e-16, 1, 1e-12);
  CHECK_CLOSE(__enzyme_error_estimate((void *)quotient, 1.0, 1e-10, 3.0, 0.0) / 1e-10, 1, 1e-12);
  CHECK_CLOSE(__enzyme_error_estimate((void *)product, 0.5, 1e-12) / 1.5e-12, 1, 1e-12);
  CHECK_CLOSE(__enzyme_error_estimate((void *)squares, 0.7, 1e-8) / 2e-8, 1, 1e-12);
  return check_done();
}
