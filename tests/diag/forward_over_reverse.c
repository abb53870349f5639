// What is not built of derivatives of gradients is refused at the inner request, naming the outer entry
// point and the function it was asked of: reverse mode over a gradient, vector forward mode over one, and
// forward mode over a gradient whose function calls through a pointer (the default case; forward mode
// over a gradient otherwise works: enzyme/hessian_vector.c). And forward mode over a tangent whose function
// calls through a pointer, which built and stopped at run time ("a derivative reached a call through a
// function pointer to 'fwddiffe.cube.d'"): refused at the inner request. No output file.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s --check-prefix=POINTER
// RUN: test ! -e %t
// RUN: rm -f %t && not %parad-cc %cflags -DREVERSE %s -o %t 2>&1 | FileCheck %s --check-prefix=REVERSE
// RUN: test ! -e %t
// RUN: rm -f %t && not %parad-cc -O0 -I%S/../include -DVECTOR %s -o %t 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: test ! -e %t
// RUN: rm -f %t && not %parad-cc %cflags -DTWICE %s -o %t 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: test ! -e %t
// POINTER: forward_over_reverse.c:[[@LINE+23]]:{{[0-9]+}}: error: __parad_fwddiff of 'grad': forward mode over a reverse-mode derivative computed here cannot differentiate a call through a function pointer in it yet
// REVERSE: forward_over_reverse.c:[[@LINE+22]]:{{[0-9]+}}: error: __parad_autodiff of 'grad': reverse mode over a reverse-mode derivative computed here is not supported yet; forward mode over it (one direction: a Hessian-vector product) is
// VECTOR: forward_over_reverse.c:[[@LINE+21]]:{{[0-9]+}}: error: __parad_fwddiff of 'grad': vector forward mode over a reverse-mode derivative computed here is not supported yet; forward mode over it (one direction: a Hessian-vector product) is
#include <math.h>
#include "check.h"
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef double (*Term)(double);
static double cube(double t) { return t * t * t; }
Term volatile_term = cube; /* not constant: the call stays a call through a pointer */

static double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * sin(x[i]);
#if !defined(REVERSE) && !defined(VECTOR)
  s += volatile_term(x[0]);
#endif
  return s;
}
// TWICE: forward_over_reverse.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff of 'tangent': a derivative over a derivative computed here cannot differentiate a call through a function pointer in it yet; call the function directly there
__attribute__((unused)) static double tangent(const double *x, const double *v, int n) { return __parad_fwddiff((void *)f, x, v, parad_const, n); }
static double grad(const double *x, double *g, int n) {
  __parad_autodiff((void *)f, x, g, parad_const, n);
  return g[0];
}

int main(void) {
  double x[2] = {0.4, -0.9}, v[2] = {1, 0}, g[2] = {0, 0}, dg[2] = {0, 0};
#if defined(REVERSE)
  double gx[2] = {0, 0}, gg[2] = {1, 0};
  __parad_autodiff((void *)grad, x, gx, g, gg, parad_const, 2);
#elif defined(VECTOR)
  double w[2] = {0, 1}, dw[2] = {0, 0};
  __parad_fwddiff((void *)grad, parad_width, 2, x, v, w, g, dg, dw, parad_const, 2);
#elif defined(TWICE)
  double w[2] = {0, 1}, dv[2] = {0, 0};
  __parad_fwddiff((void *)tangent, x, w, v, dv, parad_const, 2);
#else
  __parad_fwddiff((void *)grad, x, v, g, dg, parad_const, 2);
#endif
  return check_done();
}
