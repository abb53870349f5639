// The C++ standard library in differentiated code, at -O2 and -O0 (where every library helper is a call):
// std::unique_ptr<double[]>, std::vector with reserve, push_back and at, std::accumulate and
// std::inner_product, std::function holding a lambda, std::max_element. Gradient against central finite
// differences (h = 1e-6, 1e-7 relative) and tangents against the gradient (1e-12).
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <vector>
#include "parad.h"
#include "check.h"

enum { N = 5 };

static double g(const double *x) {
  std::unique_ptr<double[]> w(new double[N]);
  for (int i = 0; i < N; i++) w[i] = std::sqrt(1 + x[i] * x[i]);
  std::vector<double> v;
  v.reserve(N);
  for (int i = 0; i < N; i++) v.push_back(x[i] * w[i]);
  double s = std::accumulate(v.begin(), v.end(), 0.0);
  double d = std::inner_product(v.begin(), v.end(), w.get(), 0.0);
  std::function<double(double)> square = [](double t) { return t * t; };
  double m = *std::max_element(v.begin(), v.end());
  return s + d + square(v.at(1)) + m;
}

int main() {
  double x[N] = {0.3, -0.2, 0.8, 0.5, 0.1}, dx[N] = {0};
  __parad_autodiff((void *)g, x, dx);
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], v[N] = {0};
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    xp[i] += 1e-6, xm[i] -= 1e-6, v[i] = 1;
    CHECK_CLOSE(dx[i], (g(xp) - g(xm)) / 2e-6, 1e-7);
    CHECK_CLOSE(__parad_fwddiff((void *)g, x, v), dx[i], 1e-12);
  }
  return check_done();
}
