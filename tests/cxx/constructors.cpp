// Objects built inside the differentiated code: a class whose constructor (not inlined) sizes its
// std::vector members with resize and assign(n, value) (the optimiser, knowing the members empty, computes
// their new ends from null: such an address is its own shadow), and a function that builds one from its input,
// runs a few relaxation sweeps on it and returns a weighted sum. Gradient against the analytic one (the
// sweeps are linear: J = w . S^k (x * x) with S a smoothing matrix; checked against central finite
// differences, h = 1e-6, 1e-7 relative) and tangents against the gradient (1e-12), at -O2.
// RUN: %parad-cxx %cflags %s -o %t && %t
#include <cmath>
#include <vector>
#include "parad.h"
#include "check.h"

enum { N = 7 };

class Relax {
 public:
  __attribute__((noinline)) Relax(int n, const double *x) {
    u_.resize(n);
    tmp_.assign(n, 0.0);
    for (int i = 0; i < n; i++) u_[i] = x[i] * x[i];
  }
  void sweep() {
    const int n = static_cast<int>(u_.size());
    for (int i = 0; i < n; i++) tmp_[i] = 0.5 * u_[i] + 0.25 * (u_[(i + n - 1) % n] + u_[(i + 1) % n]);
    u_.swap(tmp_);
  }
  double weighted() const {
    double s = 0;
    for (size_t i = 0; i < u_.size(); i++) s += (1.0 + 0.1 * i) * u_[i];
    return s;
  }

 private:
  std::vector<double> u_, tmp_;
};

static double J(const double *x) {
  Relax r(N, x);
  for (int k = 0; k < 3; k++) r.sweep();
  return r.weighted();
}

int main() {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.15 * i;
  __parad_autodiff((void *)J, x, dx);
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], v[N] = {0};
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    xp[i] += 1e-6, xm[i] -= 1e-6, v[i] = 1;
    CHECK_CLOSE(dx[i], (J(xp) - J(xm)) / 2e-6, 1e-7);
    CHECK_CLOSE(__parad_fwddiff((void *)J, x, v), dx[i], 1e-12);
  }
  return check_done();
}
