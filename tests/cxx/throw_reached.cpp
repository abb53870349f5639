// A throw reached while a derivative is computed: Parad differentiates the path on which nothing throws,
// so the program stops there with a message that says where (never a crash, never a derivative computed
// on past it). The same gradient with an input that does not throw is right (3 x_i^2, 1e-12). The message
// formats the value (std::to_string, a variadic vsnprintf): what only leads to a throw is not
// differentiated (it was refused, "a call to the variadic function ... with active arguments").
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: not --crash %t throw 2>&1 | FileCheck %s
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && not --crash %t0 throw 2>&1 | FileCheck %s
// CHECK: parad: a C++ exception was thrown at {{.*}}throw_reached.cpp:17, in function 'cube_sum' while a derivative was being computed
#include <stdexcept>
#include <string>
#include <string.h>
#include "parad.h"
#include "check.h"

static double cube_sum(const double *x, int n) {
  if (x[0] < 0) throw std::domain_error("negative: " + std::to_string(x[0]));
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i];
  return s;
}

int main(int argc, char **argv) {
  double x[3] = {1, 2, 3}, dx[3] = {0};
  if (argc > 1 && !strcmp(argv[1], "throw")) x[0] = -1;
  try {
    __parad_autodiff((void *)cube_sum, x, dx, parad_const, 3);
  } catch (const std::exception &) {
    return 0; /* not reached: the exception does not leave the derivative */
  }
  for (int i = 0; i < 3; i++) CHECK_CLOSE(dx[i], 3 * x[i] * x[i], 1e-12);
  return check_done();
}
