// OpenMP reductions over std::vector<double> members of a class: the active values u (a copy of x made by
// the constructor) and constant weights w are members; one 'parallel for' has reduction(+ : s, t) and
// reduction(max : m), a second loop nest is 'parallel for collapse(2) reduction(+ : c)'.
//   s = sum_i w_i u_i^2,  t = sum_i u_i,  m = max_i (u_i^2 + 0.05 i)  (a unique maximum, by a margin),
//   c = sum_{i,j} K_ij sin(u_i) u_j with K_ij = exp(-0.1 (i - j)^2),   E = s + m t + c.
// dE/du_k = 2 w_k u_k + [k = argmax] 2 u_k t + m + sum_j K_kj cos(u_k) u_j + sum_i K_ik sin(u_i).
// Gradient against this analytic form (tolerance 1e-12) and against central finite differences (h = 1e-6,
// 1e-7); forward tangents along every unit direction against the gradient (1e-12), at 1, 2 and 4 threads at
// -O2 and 3 threads at -O0.
// RUN: %parad-cxx %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cxx -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include <cmath>
#include <vector>
#include "parad.h"
#include "check.h"

enum { N = 23 };

static double kernel(int i, int j) { return std::exp(-0.1 * (i - j) * (i - j)); }

class Model {
 public:
  Model(const double *x, const std::vector<double> &w) : u_(x, x + N), w_(w) {}
  double energy() const {
    double s = 0, t = 0, m = -1e300, c = 0;
    const int n = (int)u_.size();
#pragma omp parallel for reduction(+ : s, t) reduction(max : m)
    for (int i = 0; i < n; i++) {
      s += w_[i] * u_[i] * u_[i];
      t += u_[i];
      double v = u_[i] * u_[i] + 0.05 * i;
      if (v > m) m = v;
    }
#pragma omp parallel for collapse(2) reduction(+ : c)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) c += kernel(i, j) * std::sin(u_[i]) * u_[j];
    return s + m * t + c;
  }

 private:
  std::vector<double> u_, w_;
};

__attribute__((noinline)) static double objective(const double *x, const std::vector<double> *w) {
  Model model(x, *w);
  return model.energy();
}

static double X0[N];
static std::vector<double> W;

static double along(void *ctx, double h) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * h;
  return objective(x, &W);
}

int main() {
  double x[N], dx[N] = {0};
  W.resize(N);
  for (int i = 0; i < N; i++) X0[i] = x[i] = std::cos(0.9 * i) * (1 + 0.01 * i), W[i] = 1 + 0.1 * std::sin(i);
  /* the analytic gradient, from the plain values */
  double t = 0, m = -1e300;
  int arg = -1;
  for (int i = 0; i < N; i++) {
    t += x[i];
    double v = x[i] * x[i] + 0.05 * i;
    if (v > m) m = v, arg = i;
  }
  for (int i = 0; i < N; i++) /* the premise: the maximum is isolated */
    if (i != arg && !(x[i] * x[i] + 0.05 * i < m - 1e-3)) printf("FAIL: the maximum is not isolated\n"), check_failures++;
  double want[N];
  for (int k = 0; k < N; k++) {
    want[k] = 2 * W[k] * x[k] + (k == arg ? 2 * x[k] * t : 0.0) + m;
    for (int j = 0; j < N; j++) want[k] += kernel(k, j) * std::cos(x[k]) * x[j] + kernel(j, k) * std::sin(x[j]);
  }
  __parad_autodiff((void *)objective, x, dx, parad_const, &W);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dx[k], want[k], 1e-12);
    CHECK_CLOSE(dx[k], fd_central(along, &k, 0, 1e-6), 1e-7);
    double e[N] = {0};
    e[k] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)objective, x, e, parad_const, &W), dx[k], 1e-12);
  }
  return check_done();
}
