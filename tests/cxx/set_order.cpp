// A std::set<double> of active values iterated in order, both modes: the order depends on the values, so
// the function is piecewise smooth; the points tested are away from ties. With x in R^N, N = 6, the set
// holds s_i = x_i^2 - x_i; the smallest is erased, the largest inserted again (a duplicate: no change),
// and f(x) = sum_r r s_(r), s_(r) the r-th smallest of all (r = 1 .. N - 1 for those left), summed
// walking backwards from the largest.
//   df/dx_i = rank_i (2 x_i - 1), rank_i = 0 for the smallest (erased).
// The tree's rebalancing (_Rb_tree_insert_and_rebalance, _Rb_tree_rebalance_for_erase) and the walk
// (_Rb_tree_decrement, behind the reverse iterator) are mirrored on the shadow tree. Gradient and tangents
// along each unit direction against the analytic derivative (1e-12), gradient against central finite
// differences (h = 1e-6, 1e-7). At -O2 and -O0, under valgrind.
// RUN: %parad-cxx %cflags %s -o %t && %t && valgrind -q --error-exitcode=9 %t > /dev/null
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0 && valgrind -q --error-exitcode=9 %t0 > /dev/null
#include <algorithm>
#include <set>
#include "parad.h"
#include "check.h"

enum { N = 6 };

static double f(const double *x) {
  std::set<double> s;
  for (int i = 0; i < N; i++) s.insert(x[i] * x[i] - x[i]);
  s.erase(s.begin());
  s.insert(*s.rbegin()); /* already there */
  double sum = 0;
  int r = N - 2;
  for (auto it = s.rbegin(); it != s.rend(); ++it, --r) sum += (r + 1) * *it; /* walked backwards */
  return sum;
}

static void analytic(const double *x, double *g) {
  double v[N];
  int order[N];
  for (int i = 0; i < N; i++) v[i] = x[i] * x[i] - x[i], order[i] = i;
  std::sort(order, order + N, [&](int a, int b) { return v[a] < v[b]; });
  for (int r = 0; r < N; r++) g[order[r]] = r == 0 ? 0 : r * (2 * x[order[r]] - 1);
}

int main() {
  const double points[2][N] = {{0.3, 1.9, -0.7, 1.2, 2.4, 0.05}, {2.2, -1.1, 0.8, 1.5, -0.2, 3.0}};
  for (int p = 0; p < 2; p++) {
    double x[N], g[N] = {0}, want[N];
    for (int i = 0; i < N; i++) x[i] = points[p][i];
    analytic(x, want);
    __enzyme_autodiff<void>((void *)f, enzyme_dup, x, g);
    for (int i = 0; i < N; i++) {
      CHECK_CLOSE(g[i], want[i], 1e-12);
      CHECK_CLOSE(g[i], fd_component(f, x, N, i, 1e-6), 1e-7);
      double v[N] = {0};
      v[i] = 1;
      CHECK_CLOSE(__enzyme_fwddiff<double>((void *)f, enzyme_dup, x, v), want[i], 1e-12);
    }
  }
  return check_done();
}
