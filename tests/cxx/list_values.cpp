// A std::list<double> of active values, both modes: push_back, push_front, insert before an iterator,
// erase, splice from a second list, reverse, then a walk. Its node operations live in libstdc++
// (_List_node_base::_M_hook, _M_unhook, _M_transfer, _M_reverse): their derivative is the same call on
// the shadow nodes (analysis/calls.c, mirrored calls). With x in R^6:
//   l = [x0, x1, x2] (push_back), push_front(x3 x4): [x3x4, x0, x1, x2]; insert x5^2 before x1:
//   [x3x4, x0, x5^2, x1, x2]; erase x0: [x3x4, x5^2, x1, x2]; splice k = [sin x0, 2 x2] at the end:
//   [x3x4, x5^2, x1, x2, sin x0, 2 x2]; reverse: [2 x2, sin x0, x2, x1, x5^2, x3x4];
//   f = sum_r (r + 1) l_r^2 = 1 (2x2)^2 + 2 sin^2 x0 + 3 x2^2 + 4 x1^2 + 5 x5^4 + 6 (x3 x4)^2.
// Gradient and tangents along each unit direction against the analytic derivative (1e-12), gradient
// against central finite differences (h = 1e-6, 1e-7). At -O2 and -O0, under valgrind.
// RUN: %parad-cxx %cflags %s -o %t && %t && valgrind -q --error-exitcode=9 %t > /dev/null
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0 && valgrind -q --error-exitcode=9 %t0 > /dev/null
#include <cmath>
#include <iterator>
#include <list>
#include "parad.h"
#include "check.h"

enum { N = 6 };

static double f(const double *x) {
  std::list<double> l;
  for (int i = 0; i < 3; i++) l.push_back(x[i]);
  l.push_front(x[3] * x[4]);
  auto at = std::next(l.begin(), 2);
  l.insert(at, x[5] * x[5]);
  l.erase(std::next(l.begin()));
  std::list<double> k = {std::sin(x[0]), 2 * x[2]};
  l.splice(l.end(), k);
  l.reverse();
  double s = 0;
  int r = 1;
  for (double v : l) s += r++ * v * v;
  return s;
}

static void analytic(const double *x, double *g) {
  g[0] = 4 * std::sin(x[0]) * std::cos(x[0]);
  g[1] = 8 * x[1];
  g[2] = 8 * x[2] + 6 * x[2];
  g[3] = 12 * x[3] * x[4] * x[4];
  g[4] = 12 * x[3] * x[3] * x[4];
  g[5] = 20 * x[5] * x[5] * x[5];
}

int main() {
  double x[N], g[N] = {0}, want[N];
  for (int i = 0; i < N; i++) x[i] = 0.4 + 0.3 * i;
  analytic(x, want);
  __enzyme_autodiff<void>((void *)f, enzyme_dup, x, g);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(g[i], want[i], 1e-12);
    CHECK_CLOSE(g[i], fd_component(f, x, N, i, 1e-6), 1e-7);
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__enzyme_fwddiff<double>((void *)f, enzyme_dup, x, v), want[i], 1e-12);
  }
  return check_done();
}
