// OpenMP tasks in C++, both modes: a class holding its data in std::vector, whose member function splits
// the work into tasks over chunks (firstprivate chunk bounds, the object and a partial-sums vector shared),
// joined by a taskwait, then a second wave of tasks with depend clauses chaining the chunks' results.
//   E(x) = sum_c p_c + sum_c q_c,  p_c = sum_{i in c} w_i sin(x_i) x_i,  q_c = q_{c-1} * 0.5 + p_c^2
// with w_i = 1 + i / n. The tasks capture the object, so it is passed with a shadow object of the same
// shape (zero weights), as Enzyme's C++ users do. Gradient and tangents against each other (1e-12) and
// against central differences (h = 1e-6, 1e-7 relative), at 1, 2 and 4 threads at -O2.
// RUN: %parad-cxx %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <cmath>
#include <vector>
#include "parad.h"
#include "check.h"

class Chunks {
public:
  explicit Chunks(int n) : w(n) {
    for (int i = 0; i < n; i++) w[i] = 1 + double(i) / n;
  }
  double energy(const double *x) const {
    int n = (int)w.size(), nc = (n + C - 1) / C;
    std::vector<double> p(nc, 0.0), q(nc, 0.0);
    double *pp = p.data(), *qq = q.data();
#pragma omp parallel
#pragma omp single
    {
      for (int c = 0; c < nc; c++) {
#pragma omp task firstprivate(c) shared(pp)
        {
          double s = 0;
          for (int i = c * C; i < n && i < (c + 1) * C; i++) s += w[i] * std::sin(x[i]) * x[i];
          pp[c] = s;
        }
      }
#pragma omp taskwait
      for (int c = 0; c < nc; c++) {
#pragma omp task firstprivate(c) depend(in : qq[c > 0 ? c - 1 : 0]) depend(out : qq[c])
        qq[c] = (c > 0 ? qq[c - 1] * 0.5 : 0.0) + pp[c] * pp[c];
      }
    }
    double e = 0;
    for (int c = 0; c < nc; c++) e += p[c] + q[c];
    return e;
  }

  void zero() {
    for (double &v : w) v = 0;
  }

private:
  static constexpr int C = 5;
  std::vector<double> w;
};

static const Chunks *model;
static double energy_of_model(const Chunks *m, const double *x) { return m->energy(x); }
static double energy(const double *x) { return model->energy(x); }

enum { N = 17 };

static double energy_of(void *ctx, double t) {
  double *x = (double *)ctx, y[N];
  for (int i = 0; i < N; i++) y[i] = x[i];
  y[(int)x[N]] = t;
  return energy(y);
}

int main() {
  Chunks c(N), shadow(N);
  shadow.zero();
  model = &c;
  double x[N + 1], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.2 * i - 1.3;
  __parad_autodiff((void *)energy_of_model, parad_dup, &c, &shadow, x, g);
  shadow.zero(); /* it holds dE/dw now; as the tangent of the object, w's tangent must be zero */
  for (int j = 0; j < N; j++) {
    double v[N] = {0};
    v[j] = 1;
    double d = __parad_fwddiff((void *)energy_of_model, parad_dup, &c, &shadow, x, v);
    CHECK_CLOSE(g[j], d, 1e-12);
    x[N] = j;
    CHECK_CLOSE(g[j], fd_central(energy_of, x, x[j], 1e-6), 1e-7);
  }
  return check_done();
}
