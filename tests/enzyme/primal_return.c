// Enzyme's enzyme_primal_return: __enzyme_fwddiff returns the function's result, then its tangent (or
// tangents, with a width), in a struct the call is declared returning. Once refused ("unsupported
// marker"). f(x, k) = sin(k x) x, df = (k cos(k x) x + sin(k x)) dx + cos(k x) x^2 dk; a struct of three
// doubles (returned through memory) for two directions; the result against f itself (exact) and the
// tangents against the analytic ones (1e-14) and central differences (h = 1e-6, 1e-8); at -O2 and -O0.
// Refusals: a result type too small, the marker in reverse mode.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: rm -f %t1 && not %parad-cc %cflags -DSMALL %s -o %t1 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: test ! -e %t1
// RUN: rm -f %t1 && not %parad-cc %cflags -DREVERSE %s -o %t1 2>&1 | FileCheck %s --check-prefix=REVERSE
// RUN: test ! -e %t1
#include <math.h>
#include "check.h"

extern int enzyme_primal_return, enzyme_width;
typedef struct {
  double val, der;
} Dual;
typedef struct {
  double val, der[2];
} Dual2;
Dual __enzyme_fwddiff(void *, ...);
Dual2 __enzyme_fwddiff_2(void *, ...) __asm__("__enzyme_fwddiff");
double __enzyme_fwddiff_d(void *, ...) __asm__("__enzyme_fwddiff");
double __enzyme_autodiff(void *, ...);

static double f(double x, double k) { return sin(k * x) * x; }

int main(void) {
  double x = 0.7, k = 1.9, h = 1e-6;
#ifdef SMALL
  // SMALL: primal_return.c:[[@LINE+1]]:{{[0-9]+}}: error: __enzyme_fwddiff: with enzyme_primal_return, declare it as returning a struct of 2 double: the result, then the tangent
  return (int)__enzyme_fwddiff_d((void *)f, enzyme_primal_return, enzyme_dup, x, 1.0, enzyme_const, k);
#endif
#ifdef REVERSE
  // REVERSE: primal_return.c:[[@LINE+1]]:{{[0-9]+}}: error: __enzyme_autodiff: 'enzyme_primal_return' is for forward mode only
  return (int)__enzyme_autodiff((void *)f, enzyme_primal_return, x, enzyme_const, k);
#endif
  Dual d = __enzyme_fwddiff((void *)f, enzyme_primal_return, enzyme_dup, x, 1.0, enzyme_const, k);
  CHECK_CLOSE(d.val, f(x, k), 0);
  CHECK_CLOSE(d.der, k * cos(k * x) * x + sin(k * x), 1e-14);
  CHECK_CLOSE(d.der, (f(x + h, k) - f(x - h, k)) / (2 * h), 1e-8);
  Dual2 e = __enzyme_fwddiff_2((void *)f, enzyme_width, 2, enzyme_primal_return, enzyme_dup, x, 1.0, 0.0, enzyme_dup, k, 0.0, 1.0);
  CHECK_CLOSE(e.val, f(x, k), 0);
  CHECK_CLOSE(e.der[0], k * cos(k * x) * x + sin(k * x), 1e-14);
  CHECK_CLOSE(e.der[1], cos(k * x) * x * x, 1e-14);
  CHECK_CLOSE(e.der[1], (f(x, k + h) - f(x, k - h)) / (2 * h), 1e-8);
  return check_done();
}
