// std::function objects copied while a derivative runs, so that libstdc++'s manager clones the stored
// lambda (a pointer's bits copied as an integer: reverse mode moves the shadow's bits with it):
//   add   = [&acc](t) { acc += t^2 }        stored in place, copied by `auto copy = add`
//   small = [a](t) { a t }                    stored in place (a = x0)
//   big   = [a, b, c](t) { a b sin(c t) }     three captures: on the heap (b = x1, c = x2)
//   near  = [&](t) { acc t }                  by reference, built in an initializer list
// small, big and near are copied into a std::vector and each passed by value to apply(h, x1):
//   E = x0 x1 + x0 x1 sin(x2 x1) + (sum_i x_i^2) x1 + sum_i x_i^2.
// Gradient and tangents against the analytic gradient (1e-12), itself checked against central finite
// differences (h = 1e-5, 1e-6), at -O2 and -O1; forward mode at -O0 too. Reverse mode at -O0 cannot tell
// what libstdc++'s in-place copy of a capturing lambda moves (a memcpy of a reference parameter): the
// program builds, and the gradient stops with the reason when it reaches the std::function's manager
// (named as the source spells it, the symbol after).
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O1 -I%S/../include %s -o %t1 && %t1
// RUN: %parad-cxx -O0 -DFORWARD_ONLY -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0r && not %t0r 2>&1 | FileCheck %s
// CHECK: parad: a derivative reached a call through a function pointer to 'std::_Function_handler<{{.*}}>::_M_manager({{.*}})' (_ZNSt17_Function_handler{{.*}}_M_manager{{.*}}) (in {{.*}}), which Parad cannot differentiate for this call:
// CHECK-NEXT: std_function.h:{{[0-9]+}}:{{[0-9]+}}: error: reverse mode cannot tell what this copy moves (unknown data)
// CHECK-NOT: error
#include <cmath>
#include <functional>
#include <vector>
#include "parad.h"
#include "check.h"

enum { N = 3 };

static double apply(std::function<double(double)> h, double t) { return h(t); }

static double energy(const double *x) {
  double acc = 0, a = x[0], b = x[1], c = x[2];
  std::function<void(double)> add = [&acc](double t) { acc += t * t; };
  std::function<double(double)> small = [a](double t) { return a * t; };
  std::function<double(double)> big = [a, b, c](double t) { return a * b * std::sin(c * t); };
  auto copy = add;
  for (int i = 0; i < N; i++) copy(x[i]);
  std::vector<std::function<double(double)>> table = {small, big, [&](double t) { return acc * t; }};
  double s = 0;
  for (auto &g : table) s += apply(g, x[1]);
  return s + acc;
}

int main() {
  const double x[N] = {0.7, -1.3, 0.4};
  double q = x[0] * x[0] + x[1] * x[1] + x[2] * x[2], c = std::cos(x[2] * x[1]), s = std::sin(x[2] * x[1]);
  double want[N] = {x[1] + x[1] * s + 2 * x[0] * x[1] + 2 * x[0],
                    x[0] + x[0] * s + x[0] * x[1] * x[2] * c + 2 * x[1] * x[1] + q + 2 * x[1],
                    x[0] * x[1] * x[1] * c + 2 * x[2] * x[1] + 2 * x[2]};
  for (int i = 0; i < N; i++)
    for (double h = 1e-5; h >= 1e-6; h /= 10) {
      double xp[N] = {x[0], x[1], x[2]}, xm[N] = {x[0], x[1], x[2]};
      xp[i] += h, xm[i] -= h;
      CHECK_CLOSE((energy(xp) - energy(xm)) / (2 * h), want[i], 1e-6);
    }
#ifndef FORWARD_ONLY
  double d[N] = {0, 0, 0};
  __parad_autodiff((void *)energy, x, d);
  for (int i = 0; i < N; i++) CHECK_CLOSE(d[i], want[i], 1e-12);
#endif
  for (int i = 0; i < N; i++) {
    double v[N] = {0, 0, 0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)energy, x, v), want[i], 1e-12);
  }
  return check_done();
}
