// Forward over reverse in C++: a Hessian-vector product of an energy written with a template, std::vector
// storage and a lambda, through Enzyme's C++ spelling (__enzyme_autodiff<void> inside the function that
// __enzyme_fwddiff<void> differentiates). E(x) = sum_i k_i (x_{i+1} - x_i)^2 / 2 + sum_i cosh(x_i) over
// a chain of springs; H v against the analytic Hessian (tridiagonal; 1e-11) and against central
// differences of the gradient along v (1e-6), at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include <vector>
#include "parad.h"
#include "check.h"

template <typename T> static T spring(T a, T b, T k) { return k * (b - a) * (b - a) / 2; }

static double energy(const double *x, int n) {
  std::vector<double> k(n);
  for (int i = 0; i < n; i++) k[i] = 1 + 0.1 * i;
  auto site = [](double t) { return std::cosh(t); };
  double e = 0;
  for (int i = 0; i + 1 < n; i++) e += spring(x[i], x[i + 1], k[i]);
  for (int i = 0; i < n; i++) e += site(x[i]);
  return e;
}

static void gradient(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff<void>((void *)energy, enzyme_dup, x, g, enzyme_const, n);
}

enum { N = 7 };

int main() {
  double x[N], v[N], g[N], hv[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.3 * i - 0.9, v[i] = std::cos(1.0 + i);
  __enzyme_fwddiff<void>((void *)gradient, enzyme_dup, x, v, enzyme_dup, g, hv, enzyme_const, (int)N);
  for (int i = 0; i < N; i++) {
    double want = std::cosh(x[i]) * v[i];
    if (i > 0) want += (1 + 0.1 * (i - 1)) * (v[i] - v[i - 1]);
    if (i + 1 < N) want += (1 + 0.1 * i) * (v[i] - v[i + 1]);
    CHECK_CLOSE(hv[i], want, 1e-11);
  }
  double xp[N], xm[N], gp[N], gm[N], h = 1e-6;
  for (int i = 0; i < N; i++) xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
  gradient(xp, gp, N);
  gradient(xm, gm, N);
  for (int i = 0; i < N; i++) CHECK_CLOSE(hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
  return check_done();
}
