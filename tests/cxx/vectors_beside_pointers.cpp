// A std::vector<double> of the inputs beside a std::vector<std::unique_ptr<Shape>> in one function, as an
// object-oriented program holds its model: the parts are pushed back (the vector of pointers grows), their
// energies summed through virtual calls, and a std::sort of indices by value (std::iota, a comparator
// lambda). Both vectors' blocks are null while empty, and the optimiser joins each with null: the memory
// analysis once took null for an object, so the doubles copied from x shared the layout of the block of
// unique_ptrs and their adjoints were dropped (a gradient of zeros, no message), and with the sort the copy
// was refused as mixed data.
//   E = k x0^2 / 2 (Spring, k = 2) + 1 - cos x1 + x0 x1 (Pendulum) + x1^2 + 3 max_i x_i,
//   dE/dx0 = 2 x0 + x1, dE/dx1 = sin x1 + x0 + 2 x1, dE/dx_argmax += 3.
// Gradient against the analytic one (1e-12); forward tangents along each unit direction against it
// (1e-12); at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>
#include "check.h"

extern "C" {
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
}

struct Shape {
  virtual ~Shape() = default;
  virtual double energy(const double *x) const = 0;
};
struct Spring : Shape {
  double k;
  explicit Spring(double k) : k(k) {}
  double energy(const double *x) const override { return 0.5 * k * x[0] * x[0]; }
};
struct Pendulum : Shape {
  double energy(const double *x) const override { return 1 - std::cos(x[1]) + x[0] * x[1]; }
};

enum { N = 4 };

static double model(const double *x, int n) {
  std::vector<double> v(x, x + n);
  std::vector<std::unique_ptr<Shape>> parts;
  parts.push_back(std::make_unique<Spring>(2.0));
  parts.push_back(std::make_unique<Pendulum>());
  double e = 0;
  for (auto &p : parts) e += p->energy(v.data());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return v[a] > v[b]; });
  return e + v[1] * v[1] + 3 * v[order[0]];
}

int main() {
  double x[N] = {0.3, 0.47, 0.9, 0.81}, g[N] = {0}, want[N] = {2 * x[0] + x[1], std::sin(x[1]) + x[0] + 2 * x[1], 3, 0};
  __parad_autodiff((void *)model, x, g, parad_const, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(g[i], want[i], 1e-12);
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)model, x, v, parad_const, N), want[i], 1e-12);
  }
  return check_done();
}
