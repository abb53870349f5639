// At -O0 each request's derivative is made from optimised copies of the functions it reaches, or, where
// those are refused, from the program as compiled. That was decided for the whole file: a request whose
// copies were refused (a product of std::vector<std::vector<double>>, whose copies' derivatives are
// refused at -O0) took the copies from every other request too, and one of those (a std::sort of records,
// refused in libstdc++'s code as compiled) then failed: each built alone, the two together were refused,
// with messages only in libstdc++. Now only the requests whose copies were refused (the functions they
// reach hold an error) are made from the program as compiled, and the others keep their copies.
//   sorted: records {id, x_i, x_i^2} sorted by key x_i; f = w of the first + key of the last: d/dx = 2 x_0
//           at the smallest, 1 at the largest (x increasing).
//   trace:  tr(M^2), M = [[x0 x1] [x2 x3]]: d/dx = 2 M^T = (2 x0, 2 x2, 2 x1, 2 x3).
// Gradients against those (1e-12) and forward tangents, at -O0 (both requests in one file) and at -O2.
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cxx %cflags %s -o %t && %t
#include <algorithm>
#include <vector>
#include "check.h"

extern "C" {
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
}

struct Item {
  int id;
  double key, w;
};

double sorted(const double *x, int n) {
  std::vector<Item> v;
  for (int i = 0; i < n; i++) v.push_back({i, x[i], x[i] * x[i]});
  std::sort(v.begin(), v.end(), [](const Item &a, const Item &b) { return a.key < b.key; });
  return v[0].w + v[n - 1].key;
}

double trace(const double *x, int) {
  std::vector<std::vector<double>> M(2, std::vector<double>(2));
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) M[i][j] = x[i * 2 + j];
  std::vector<std::vector<double>> P(2, std::vector<double>(2, 0.0));
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < 2; k++) P[i][j] += M[i][k] * M[k][j];
  return P[0][0] + P[1][1];
}

int main() {
  double x[6] = {1, 2, 3, 4, 5, 6}, g[6] = {0}, h[4] = {0};
  __parad_autodiff((void *)sorted, x, g, parad_const, 6);
  __parad_autodiff((void *)trace, x, h, parad_const, 4);
  double want_g[6] = {2, 0, 0, 0, 0, 1}, want_h[4] = {2, 6, 4, 8};
  for (int i = 0; i < 6; i++) {
    CHECK_CLOSE(g[i], want_g[i], 1e-12);
    double v[6] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)sorted, x, v, parad_const, 6), want_g[i], 1e-12);
  }
  for (int i = 0; i < 4; i++) {
    CHECK_CLOSE(h[i], want_h[i], 1e-12);
    double v[4] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)trace, x, v, parad_const, 4), want_h[i], 1e-12);
  }
  return check_done();
}
