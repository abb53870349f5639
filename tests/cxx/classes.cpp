// C++ built with parad-c++, both modes: a class whose member function is differentiated through a free
// wrapper, a template over the float type (float and double), a lambda passed to a template, references,
// new/delete and new[]/delete[] (their shadows as malloc's), std::array with range-for, and the std::
// overloads of <cmath>. E(x) = sum_i k/2 (x_{i+1} - x_i - r)^2 + sum_i sin(x_i)^2 + c |p|^2 exp(-x_0), with
// p a heap object holding copies of x. Gradient against the analytic one (1e-12) and forward tangents
// against the gradient along each unit direction (1e-12), at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <array>
#include <cmath>
#include "parad.h"
#include "check.h"

enum { N = 7 };

class Chain {
 public:
  Chain(double k, double rest) : k_(k), rest_(rest) {}
  double energy(const double *x) const {
    double e = 0;
    for (int i = 0; i + 1 < N; i++) e += bond(x[i], x[i + 1]);
    return e;
  }

 private:
  double bond(const double &a, const double &b) const {
    double d = b - a - rest_;
    return 0.5 * k_ * d * d;
  }
  double k_, rest_;
};

struct Point {
  double v[3];
};

template <typename T, typename F> static T sum_over(const T *x, int n, F f) {
  T s = 0;
  for (int i = 0; i < n; i++) s += f(x[i]);
  return s;
}

template <typename T> static T squares_of_sines(const T *x, int n) {
  return sum_over(x, n, [](T v) { return std::sin(v) * std::sin(v); });
}

static double total(const double *x) {
  Chain chain(2.0, 0.25);
  double *copy = new double[N];
  for (int i = 0; i < N; i++) copy[i] = x[i];
  Point *p = new Point{{x[1], x[2], x[3]}};
  std::array<double, 3> w{{0.5, 1.5, 2.5}};
  double norm = 0;
  int j = 0;
  for (double c : w) norm += c * p->v[j] * p->v[j], j++;
  double e = chain.energy(copy) + squares_of_sines(copy, N) + norm * std::exp(-x[0]);
  delete p;
  delete[] copy;
  return e;
}

static float total_f(const float *x) { return squares_of_sines(x, N) + std::pow(x[0], 2.0f); }

int main() {
  double x[N], dx[N] = {0}, want[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.3 * i - 0.2 + 0.05 * i * i;
  for (int i = 0; i + 1 < N; i++) {
    double d = x[i + 1] - x[i] - 0.25;
    want[i] -= 2.0 * d, want[i + 1] += 2.0 * d;
  }
  for (int i = 0; i < N; i++) want[i] += 2 * std::sin(x[i]) * std::cos(x[i]);
  double c[3] = {0.5, 1.5, 2.5}, norm = 0;
  for (int k = 0; k < 3; k++) norm += c[k] * x[k + 1] * x[k + 1], want[k + 1] += 2 * c[k] * x[k + 1] * std::exp(-x[0]);
  want[0] -= norm * std::exp(-x[0]);
  __parad_autodiff((void *)total, x, dx);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], want[i], 1e-12);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)total, x, v), want[i], 1e-12);
  }
  float xf[N], dxf[N] = {0};
  for (int i = 0; i < N; i++) xf[i] = (float)x[i];
  __parad_autodiff((void *)total_f, xf, dxf);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dxf[i], 2 * std::sin(xf[i]) * std::cos(xf[i]) + (i == 0 ? 2 * xf[0] : 0), 1e-5);
  return check_done();
}
