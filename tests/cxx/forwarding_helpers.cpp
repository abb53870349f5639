// A gradient helper as C++ code writes one: a template over the callable, or an inline function, that
// hands the function it is given on to a request. Such a helper is inlined where it is called, so that
// the request names the function; only static helpers were (a template's or an inline function's body is
// linkonce_odr), and these were refused ("the first argument must be a function named in this file").
//   f(x) = x0^2 x1: gradient (2 x0 x1, x0^2); g(x) = sin x0 + x1^3: (cos x0, 3 x1^2). Against those (1e-12).
// RUN: %parad-cxx -O2 -I%S/../include %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include "check.h"

extern "C" void __enzyme_autodiff(void *, ...);

template <class Fn> void gradient(Fn *f, const double *x, double *g) {
  g[0] = g[1] = 0;
  __enzyme_autodiff((void *)f, x, g);
}

inline void gradient_of(double (*f)(const double *), const double *x, double *g) { gradient(f, x, g); }

static double f(const double *x) { return x[0] * x[0] * x[1]; }
static double g(const double *x) { return std::sin(x[0]) + x[1] * x[1] * x[1]; }

int main() {
  double x[2] = {1.5, 2.0}, d[2];
  gradient(f, x, d);
  CHECK_CLOSE(d[0], 2 * x[0] * x[1], 1e-12);
  CHECK_CLOSE(d[1], x[0] * x[0], 1e-12);
  gradient_of(g, x, d);
  CHECK_CLOSE(d[0], std::cos(x[0]), 1e-12);
  CHECK_CLOSE(d[1], 3 * x[1] * x[1], 1e-12);
  return check_done();
}
