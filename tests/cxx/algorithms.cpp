// <algorithm> and <numeric> on active values, both modes, over std::array storage: std::copy of the input,
// std::transform with a lambda (b_i = x_i^2 + sin x_i), std::accumulate (plain and with a lambda),
// std::inner_product, std::for_each with a lambda capturing an accumulator by reference and an active
// value by copy, std::fill with an active value, std::min / std::max / std::clamp (constant bounds,
// inside and outside; active bounds, the upper one chosen). At x = (0.3, 0.7, -0.4, 0.2, 0.5, 0.9):
//   E = sum b_i + sum x_i b_i + 0.5 x0 sum x_i^2 + N x1^2 + min(x2, x3) max(x4, x5)
//       + clamp(x0, -0.5, 0.5) + clamp(x1, -0.2, 0.2) x2 + clamp(x5, x2, x4)^2
//     = ... + x2 x5 + x0 + 0.2 x2 + x4^2 at this point.
// Gradient against the analytic one (1e-12), itself checked against central finite differences
// (h = 1e-5, 1e-6); forward tangents against the analytic gradient along each unit direction (1e-12), at
// -O2 and -O0 (where std::for_each returns its functor by value into a temporary nobody reads).
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include "parad.h"
#include "check.h"

enum { N = 6 };

static double algos(const double *x) {
  std::array<double, N> a, b, c;
  std::copy(x, x + N, a.begin());
  std::transform(a.begin(), a.end(), b.begin(), [](double t) { return t * t + std::sin(t); });
  double s = std::accumulate(b.begin(), b.end(), 0.0);
  double ip = std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
  double scale = 0.5 * x[0], acc = 0;
  std::for_each(a.begin(), a.end(), [&acc, scale](double t) { acc += scale * t * t; });
  std::fill(c.begin(), c.end(), x[1]);
  double f = std::accumulate(c.begin(), c.end(), 0.0, [](double u, double v) { return u + v * v; });
  double mn = std::min(x[2], x[3]), mx = std::max(x[4], x[5]);
  double cl = std::clamp(x[0], -0.5, 0.5) + std::clamp(x[1], -0.2, 0.2) * x[2];
  double ca = std::clamp(x[5], x[2], x[4]);
  return s + ip + acc + f + mn * mx + cl + ca * ca;
}

int main() {
  const double x[N] = {0.3, 0.7, -0.4, 0.2, 0.5, 0.9};
  double want[N], sq = 0;
  for (int i = 0; i < N; i++) sq += x[i] * x[i];
  for (int i = 0; i < N; i++)
    want[i] = 2 * x[i] + std::cos(x[i]) + 3 * x[i] * x[i] + std::sin(x[i]) + x[i] * std::cos(x[i]) + x[0] * x[i];
  want[0] += 0.5 * sq + 1;
  want[1] += 2 * N * x[1];
  want[2] += x[5] + 0.2; /* min picks x2, max picks x5; clamp(x1) is the constant 0.2 */
  want[5] += x[2];
  want[4] += 2 * x[4]; /* clamp(x5, x2, x4) = x4 */
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], h = 1e-5;
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    xp[i] += h, xm[i] -= h;
    CHECK_CLOSE((algos(xp) - algos(xm)) / (2 * h), want[i], 1e-6);
  }
  double dx[N] = {0};
  __parad_autodiff((void *)algos, x, dx);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], want[i], 1e-12);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)algos, x, v), want[i], 1e-12);
  }
  return check_done();
}
