// std::vector<double> built inside the differentiated function, both modes: push_back and emplace_back
// from empty (the storage reallocated as it grows, the values moved to each new block), reserve smaller
// than what is then pushed, resize with a fill value, clear and reuse, back(), iterators (the element's
// index as it - begin()), a const_iterator loop, and a std::vector<std::vector<double>> whose rows are
// grown one push_back at a time. With N = 6 and v = (x_i^2, sin x_i, 0.5 x_i), i = 0..N-1:
//   E = sum_j (1 + 0.1 j) v_j + v.back()^2 + sum_{r<3} sum_{c<N-r} ((r+1) x_{(r+c) mod N})^2
//       + 3 x0 + sum_i x_i^3 (the last through a vector cleared and refilled).
// Gradient against the analytic one (1e-12), itself checked against central finite differences
// (h = 1e-5, 1e-6); forward tangents against the analytic gradient along each unit direction and a mixed
// one (1e-12), at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include <vector>
#include "parad.h"
#include "check.h"

enum { N = 6 };

static double build(const double *x) {
  std::vector<double> v;
  for (int i = 0; i < N; i++) v.push_back(x[i] * x[i]);
  for (int i = 0; i < N; i++) v.emplace_back(std::sin(x[i]));
  v.resize(3 * N, 0.5);
  for (int i = 0; i < N; i++) v[2 * N + i] *= x[i];
  double s = 0;
  for (auto it = v.begin(); it != v.end(); ++it) s += (1 + 0.1 * (it - v.begin())) * *it;
  s += v.back() * v.back();

  std::vector<std::vector<double>> rows(3);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < N - r; c++) rows[r].push_back((r + 1) * x[(r + c) % N]);
  for (const auto &row : rows)
    for (std::vector<double>::const_iterator it = row.begin(); it != row.end(); ++it) s += *it * *it;

  std::vector<double> tmp;
  tmp.reserve(2);
  for (int i = 0; i < N; i++) tmp.push_back(x[i] * x[i] * x[i]);
  s += 3 * x[0] * tmp.size() / N;
  double cubes = 0;
  for (double c : tmp) cubes += c;
  tmp.clear();
  tmp.push_back(cubes);
  return s + tmp.back();
}

int main() {
  double x[N], want[N];
  for (int i = 0; i < N; i++) x[i] = 0.25 * i - 0.6 + 0.05 * i * i;
  for (int i = 0; i < N; i++) {
    want[i] = (1 + 0.1 * i) * 2 * x[i] + (1 + 0.1 * (N + i)) * std::cos(x[i]) + (1 + 0.1 * (2 * N + i)) * 0.5;
    want[i] += 3 * x[i] * x[i];
  }
  want[N - 1] += 0.5 * x[N - 1];
  want[0] += 3;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < N - r; c++) want[(r + c) % N] += 2 * (r + 1) * (r + 1) * x[(r + c) % N];
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], h = 1e-5;
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    xp[i] += h, xm[i] -= h;
    CHECK_CLOSE((build(xp) - build(xm)) / (2 * h), want[i], 1e-6);
  }
  double dx[N] = {0};
  __parad_autodiff((void *)build, x, dx);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], want[i], 1e-12);
  double mix[N], want_mix = 0;
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)build, x, v), want[i], 1e-12);
    mix[i] = 0.3 * i - 1, want_mix += mix[i] * want[i];
  }
  CHECK_CLOSE(__parad_fwddiff((void *)build, x, mix), want_mix, 1e-12);
  return check_done();
}
