// OpenMP in C++: a parallel loop in a member function of a class holding its particles in std::vector
// storage (its region's calls are invokes whose landing pads terminate), a reduction, a lambda called in
// the loop body. E = sum_i m_i (x_i - c)^2 / 2 + sum_i sin(x_i x_{i+1}), c the mean of x (a first parallel
// loop). Gradient against the analytic one (1e-12), tangent against the gradient (1e-12), at 1, 2 and 4
// threads at -O2, at 3 threads at -O0.
// RUN: %parad-cxx %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cxx -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include <cmath>
#include <vector>
#include "parad.h"
#include "check.h"

enum { N = 103 };

class Particles {
 public:
  explicit Particles(const double *m) : m_(m, m + N) {}
  double energy(const double *x) const {
    double c = 0;
#pragma omp parallel for reduction(+ : c)
    for (int i = 0; i < N; i++) c += x[i];
    c /= N;
    auto pair = [](double a, double b) { return std::sin(a * b); };
    double e = 0;
#pragma omp parallel for reduction(+ : e)
    for (int i = 0; i < N; i++) {
      double d = x[i] - c;
      e += 0.5 * m_[i] * d * d + (i + 1 < N ? pair(x[i], x[i + 1]) : 0.0);
    }
    return e;
  }

 private:
  std::vector<double> m_;
};

static double total(const double *x, const Particles *p) { return p->energy(x); }

int main() {
  double m[N], x[N], dx[N] = {0}, want[N] = {0}, c = 0;
  for (int i = 0; i < N; i++) m[i] = 1 + 0.01 * i, x[i] = 0.5 * std::sin(0.3 * i), c += x[i];
  c /= N;
  Particles p(m);
  double md = 0;
  for (int i = 0; i < N; i++) md += m[i] * (x[i] - c);
  for (int i = 0; i < N; i++) {
    want[i] = m[i] * (x[i] - c) - md / N;
    if (i + 1 < N) want[i] += std::cos(x[i] * x[i + 1]) * x[i + 1];
    if (i > 0) want[i] += std::cos(x[i - 1] * x[i]) * x[i - 1];
  }
  __parad_autodiff((void *)total, x, dx, parad_const, &p);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], want[i], 1e-12);
  double v[N] = {0};
  v[5] = 1;
  CHECK_CLOSE(__parad_fwddiff((void *)total, x, v, parad_const, &p), want[5], 1e-12);
  return check_done();
}
