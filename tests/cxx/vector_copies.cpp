// std::vector's copies in differentiated code, at -O2 and -O0: assign(first, last) in a constructor, the
// copy constructor, construction from a range, insert of a range in the middle (a memmove of the tail,
// and one element moved as an integer load and store once optimised), resize with a fill value, growth by
// push_back (relocation by memmove at -O0), and std::sort of active values (moves inside the sort).
// f(x) = sum_i (i+1) c_i^2 over c = [x0, x0..x4, x1..x4, 0.5, 0.5] plus sum_i (i+1) sort(sin x)_i. Gradient
// against the analytic one (1e-12), tangents against the gradient (1e-12).
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <algorithm>
#include <cmath>
#include <vector>
#include "parad.h"
#include "check.h"

enum { N = 5, M = 40 };

struct Model {
  std::vector<double> w;
  Model(const double *x, int n) { w.assign(x, x + n); }
};

static double copies(const double *x) {
  Model m(x, N);
  std::vector<double> c(m.w);
  std::vector<double> r(x, x + N);
  c.insert(c.begin() + 1, r.begin(), r.end());
  c.resize(12, 0.5);
  double s = 0;
  for (size_t i = 0; i < c.size(); i++) s += c[i] * c[i] * double(i + 1);
  return s;
}

static double sorted(const double *x) {
  std::vector<double> v;
  for (int i = 0; i < M; i++) v.push_back(std::sin(x[i]));
  std::sort(v.begin(), v.end());
  double s = 0;
  for (int i = 0; i < M; i++) s += v[i] * (i + 1);
  return s;
}

int main() {
  double x[N] = {0.1, 0.2, 0.3, 0.4, 0.5}, dx[N] = {0};
  __parad_autodiff((void *)copies, x, dx);
  for (int k = 0; k < N; k++) /* x_k at index 1 + k (weight k + 2), and at 0 (weight 1) or 5 + k (k + 6) */
    CHECK_CLOSE(dx[k], 2 * x[k] * (k + 2) + 2 * x[k] * (k == 0 ? 1 : k + 6), 1e-12);
  double v[N] = {0, 0, 1, 0, 0};
  CHECK_CLOSE(__parad_fwddiff((void *)copies, x, v), dx[2], 1e-12);

  double y[M], dy[M] = {0}, w[M] = {0};
  for (int i = 0; i < M; i++) y[i] = 0.37 * ((i * 17) % M) + 0.01 * i;
  __parad_autodiff((void *)sorted, y, dy);
  for (int i = 0; i < M; i++) { /* sin y_i lands at its rank among the sines */
    int rank = 0;
    for (int j = 0; j < M; j++) rank += std::sin(y[j]) < std::sin(y[i]);
    CHECK_CLOSE(dy[i], std::cos(y[i]) * (rank + 1), 1e-12);
  }
  w[3] = 1;
  CHECK_CLOSE(__parad_fwddiff((void *)sorted, y, w), dy[3], 1e-12);
  return check_done();
}
