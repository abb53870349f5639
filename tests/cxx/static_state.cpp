// Static and namespace-scope state read by differentiated code, both modes, x in R^5:
//  weighted(x): a function-local static const std::vector<double> w = make_weights() (w_i = 1/(i+1)),
//    initialised lazily on the first call, which is the gradient request; a static data member
//    (Table::scale = 1.5), a constexpr one (Table::n), namespace constants (phys::constants::half), an
//    inline variable (phys::offset = 0.25):
//    E = half * scale * sum_i w_i x_i^2 + offset x0.
//  tabled(x): a function-local static const std::array<double, 5> t = make_table() (t_i = 2 + sin i),
//    initialised on the first call, which is a forward request, a static const array member
//    (Table::coeffs), a global const in a nested namespace (phys::constants::g), and a function-local
//    static counter incremented on every call:
//    E = sum_i t_i coeffs_i sin(x_i) + g x1 x2.
// The initialisers run once (counted). Gradients against the analytic ones (1e-12), themselves checked
// against central finite differences (h = 1e-5, 1e-6); forward tangents along each unit direction against
// them (1e-12), at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <array>
#include <cmath>
#include <vector>
#include "parad.h"
#include "check.h"

namespace phys {
namespace constants {
const double g = 9.81;
constexpr double half = 0.5;
}  // namespace constants
inline double offset = 0.25;

struct Table {
  static double scale;
  static constexpr int n = 5;
  static const double coeffs[n];
};
double Table::scale = 1.5;
const double Table::coeffs[Table::n] = {1.0, -0.5, 0.25, 2.0, -1.5};

int weight_inits, table_inits, tabled_calls;

static std::vector<double> make_weights() {
  weight_inits++;
  std::vector<double> w(Table::n);
  for (int i = 0; i < Table::n; i++) w[i] = 1.0 / (i + 1);
  return w;
}

static std::array<double, Table::n> make_table() {
  table_inits++;
  std::array<double, Table::n> t;
  for (int i = 0; i < Table::n; i++) t[i] = 2 + std::sin(i);
  return t;
}

static double weighted(const double *x) {
  static const std::vector<double> w = make_weights();
  double s = 0;
  for (int i = 0; i < Table::n; i++) s += w[i] * x[i] * x[i];
  return constants::half * Table::scale * s + offset * x[0];
}

static double tabled(const double *x) {
  static const std::array<double, Table::n> t = make_table();
  static int calls = 0;
  tabled_calls = ++calls;
  double s = 0;
  for (int i = 0; i < Table::n; i++) s += t[i] * Table::coeffs[i] * std::sin(x[i]);
  return s + constants::g * x[1] * x[2];
}
}  // namespace phys

using namespace phys;
enum { N = Table::n };

int main() {
  const double x[N] = {0.5, -0.3, 0.8, 1.1, -0.9};
  double w1[N], w2[N];
  for (int i = 0; i < N; i++) {
    w1[i] = 0.5 * 1.5 * 2 * x[i] / (i + 1);
    w2[i] = (2 + std::sin(i)) * Table::coeffs[i] * std::cos(x[i]);
  }
  w1[0] += 0.25;
  w2[1] += 9.81 * x[2], w2[2] += 9.81 * x[1];

  /* first calls: the gradient of weighted, a tangent of tabled */
  double d1[N] = {0};
  __parad_autodiff((void *)weighted, x, d1);
  CHECK_CLOSE(weight_inits, 1, 0);
  for (int i = 0; i < N; i++) CHECK_CLOSE(d1[i], w1[i], 1e-12);
  double v0[N] = {1, 0, 0, 0, 0};
  CHECK_CLOSE(__parad_fwddiff((void *)tabled, x, v0), w2[0], 1e-12);
  CHECK_CLOSE(table_inits, 1, 0);
  CHECK_CLOSE(tabled_calls, 1, 0);

  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)weighted, x, v), w1[i], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)tabled, x, v), w2[i], 1e-12);
  }
  CHECK_CLOSE(tabled_calls, 1 + N, 0);
  double d2[N] = {0};
  __parad_autodiff((void *)tabled, x, d2);
  for (int i = 0; i < N; i++) CHECK_CLOSE(d2[i], w2[i], 1e-12);
  CHECK_CLOSE(tabled_calls, 2 + N, 0);

  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], h = 1e-5;
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    xp[i] += h, xm[i] -= h;
    CHECK_CLOSE((weighted(xp) - weighted(xm)) / (2 * h), w1[i], 1e-6);
    CHECK_CLOSE((tabled(xp) - tabled(xm)) / (2 * h), w2[i], 1e-6);
  }
  CHECK_CLOSE(weight_inits, 1, 0);
  CHECK_CLOSE(table_inits, 1, 0);
  return check_done();
}
