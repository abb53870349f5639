// Enzyme's __enzyme_iter(n, step): a count that grows by step each time the code is differentiated, so that
// a truncated series keeps its accuracy in its derivatives. Written as Enzyme's users write it.
//   count(x) = x^2 iter(5, 2):   primal 5 x^2, first derivatives (reverse and forward) 2 x 7, second
//                                (forward over forward) 2 * 9;
//   series(x) = sum_{k odd < iter(12, 2)} (-1)^((k-1)/2) x^k / k!:  sin's Taylor series, whose derivative,
//                                two terms longer, matches cos as closely as the primal matches sin.
// Values exact (1e-12) or against libm (1e-9), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdint.h>
#include "check.h"

uint64_t __enzyme_iter(uint64_t, uint64_t);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double count(double x) { return x * x * (double)__enzyme_iter(5, 2); }
static double d_count(double x) { return __enzyme_fwddiff((void *)count, x, 1.0); }

static double series(double x) {
  double s = 0, term = x; /* x^k / k! */
  uint64_t n = __enzyme_iter(12, 2);
  for (uint64_t k = 1; k < n; k += 2) {
    s += (k / 2 % 2 ? -term : term);
    term *= x * x / (double)((k + 1) * (k + 2));
  }
  return s;
}

int main(void) {
  double x = 1.5;
  CHECK_CLOSE(count(x), 5 * x * x, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff((void *)count, x), 2 * x * 7, 1e-12);
  CHECK_CLOSE(d_count(x), 2 * x * 7, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)d_count, x, 1.0), 2 * 9, 1e-12);
  double y = 0.9;
  CHECK_CLOSE(series(y), sin(y), 1e-9);
  CHECK_CLOSE(__enzyme_autodiff((void *)series, y), cos(y), 1e-9);
  CHECK_CLOSE(__enzyme_fwddiff((void *)series, y, 1.0), cos(y), 1e-9);
  return check_done();
}
