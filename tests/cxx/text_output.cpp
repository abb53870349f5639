// Active values written as text on the path a derivative takes: std::cout << y (std::ostream's operator<<
// and _M_insert<double>, std::endl) and std::to_string(y) kept in a global string. They carry nothing
// out, as printf does (analysis/calls.c); they were refused ("cannot differentiate a call to
// '_ZNSo9_M_insertIdEERSoT_'", located in libstdc++'s header). Gradient and tangent against the analytic
// ones (1e-12), -O2 and -O0; the text printed is the primal's.
// RUN: %parad-cxx %cflags %s -o %t && %t | FileCheck %s
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0 | FileCheck %s
// CHECK: y = 0.450952
// CHECK: label y=0.450952
#include <cmath>
#include <iostream>
#include <string>
#include "check.h"

extern "C" double __parad_autodiff(void *, ...);
extern "C" double __parad_fwddiff(void *, ...);

static std::string label;
static int verbose = 1;

static double f(double x) {
  double y = std::sin(x) * x;
  if (verbose) std::cout << "y = " << y << std::endl;
  label = "y=" + std::to_string(y);
  return y * y;
}

int main() {
  double x = 0.7, y = std::sin(x) * x, want = 2 * y * (std::cos(x) * x + std::sin(x));
  CHECK_CLOSE(__parad_autodiff((void *)f, x), want, 1e-12);
  verbose = 0;
  CHECK_CLOSE(__parad_fwddiff((void *)f, x, 1.0), want, 1e-12);
  std::cout << "label " << label << "\n";
  return check_done();
}
