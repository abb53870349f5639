// Enzyme's entry points declared in C++ without extern "C" and not as templates, as Enzyme's C++ users
// also write them (`double __enzyme_autodiff(void *, ...);`, or with the exact parameters): each is a
// mangled declaration (_Z17__enzyme_autodiffPvz) that was not taken for a request, so the program
// compiled without a word and failed to link ("undefined reference to __enzyme_autodiff(void*, ...)").
// Gradient of a scalar function (variadic declaration) and of a sum over an array with a shadow (exact
// prototype), a forward tangent: against the analytic derivatives (1e-12), at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include "check.h"

double __enzyme_autodiff(void *, ...);
void __enzyme_autodiff(void *, const double *, double *, int);
double __enzyme_fwddiff(void *, double, double);
int enzyme_dup, enzyme_const, enzyme_dupnoneed, enzyme_out, enzyme_width;

static double cube(double x) { return x * x * x + std::sin(x); }

static double sum_sq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * (1 + i);
  return s;
}

int main() {
  CHECK_CLOSE(__enzyme_autodiff((void *)cube, 0.7), 3 * 0.49 + std::cos(0.7), 1e-12);
  double x[4] = {0.5, -1.0, 2.0, 0.25}, g[4] = {0};
  __enzyme_autodiff((void *)sum_sq, x, g, 4);
  for (int i = 0; i < 4; i++) CHECK_CLOSE(g[i], 2 * x[i] * (1 + i), 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)cube, 0.7, 1.0), 3 * 0.49 + std::cos(0.7), 1e-12);
  return check_done();
}
