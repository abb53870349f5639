// std::map<int, double> built inside the differentiated function from active inputs, both modes. Its node
// operations live in libstdc++ (_Rb_tree_insert_and_rebalance, _Rb_tree_rebalance_for_erase,
// _Rb_tree_increment): their derivative is the same call on the shadow tree (analysis/calls.c, mirrored
// calls). With x in R^N, N = 7:
//   m.insert({(3 i) mod N, x_i}) for i < N (keys 0..6, inserted out of order: rotations), m[10] = x_0 x_1,
//   m[(3 * 2) mod N] += x_2^2 (operator[] on a present key), m.erase(4) (the key of x_6: 3*6 mod 7 = 4),
//   f(x) = sum over m of (key + 1) sin(value).
// So f = sum_{i != 6} (k_i + 1) sin(x_i + [i == 2] x_2^2) + 11 sin(x_0 x_1), k_i = 3 i mod 7.
// Gradient (__enzyme_autodiff) and tangents along each unit direction (__enzyme_fwddiff) against the
// analytic derivative (1e-12), and the gradient against central finite differences (h = 1e-6, 1e-7).
// At -O2 and -O0, and under valgrind (no invalid access, no leak of shadow nodes).
// RUN: %parad-cxx %cflags %s -o %t && %t && valgrind -q --error-exitcode=9 %t > /dev/null
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0 && valgrind -q --error-exitcode=9 %t0 > /dev/null
#include <cmath>
#include <map>
#include "parad.h"
#include "check.h"

enum { N = 7 };

static double f(const double *x) {
  std::map<int, double> m;
  for (int i = 0; i < N; i++) m.insert({3 * i % N, x[i]});
  m[10] = x[0] * x[1];
  m[3 * 2 % N] += x[2] * x[2];
  m.erase(4);
  double s = 0;
  for (auto &kv : m) s += (kv.first + 1) * std::sin(kv.second);
  return s;
}

static void analytic(const double *x, double *g) {
  for (int i = 0; i < N; i++) {
    int k = 3 * i % N;
    double v = x[i] + (i == 2 ? x[2] * x[2] : 0);
    g[i] = i == 6 ? 0 : (k + 1) * std::cos(v) * (i == 2 ? 1 + 2 * x[2] : 1);
  }
  g[0] += 11 * std::cos(x[0] * x[1]) * x[1];
  g[1] += 11 * std::cos(x[0] * x[1]) * x[0];
}

int main() {
  double x[N], g[N] = {0}, want[N];
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.15 * i;
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
