// Virtual functions: a chain whose bonds hold a pointer to an abstract potential, harmonic or Morse (calls
// through the vtable are calls through function pointers: Parad looks up at run time the derivative of the
// function the pointer holds). E = sum_i V_i(x_{i+1} - x_i). Gradient against the analytic one (1e-12)
// and tangents against the gradient (1e-12), at -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <cmath>
#include "parad.h"
#include "check.h"

struct Potential {
  virtual double energy(double r) const = 0;
  virtual double slope(double r) const = 0; /* for the analytic gradient */
  virtual ~Potential() {}
};

struct Harmonic : Potential {
  double k;
  explicit Harmonic(double k) : k(k) {}
  double energy(double r) const override { return 0.5 * k * r * r; }
  double slope(double r) const override { return k * r; }
};

struct Morse : Potential {
  double a;
  explicit Morse(double a) : a(a) {}
  double energy(double r) const override {
    double e = 1 - std::exp(-a * r);
    return e * e;
  }
  double slope(double r) const override { return 2 * (1 - std::exp(-a * r)) * a * std::exp(-a * r); }
};

enum { N = 9 };

__attribute__((noinline)) static double chain(const double *x, const Potential *const *bond) {
  double e = 0;
  for (int i = 0; i + 1 < N; i++) e += bond[i]->energy(x[i + 1] - x[i]);
  return e;
}

int main() {
  Harmonic h(2.0);
  Morse m(1.5);
  const Potential *bond[N - 1];
  for (int i = 0; i + 1 < N; i++) bond[i] = i % 3 ? static_cast<const Potential *>(&m) : &h;
  double x[N], dx[N] = {0}, want[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.4 * i + 0.1 * std::sin(i);
  for (int i = 0; i + 1 < N; i++) {
    double s = bond[i]->slope(x[i + 1] - x[i]);
    want[i] -= s, want[i + 1] += s;
  }
  __parad_autodiff((void *)chain, x, dx, parad_const, bond);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], want[i], 1e-12);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)chain, x, v, parad_const, bond), want[i], 1e-12);
  }
  return check_done();
}
