// OpenMP loops in member functions: a Grid class holding an n x n field in two std::vector<double> buffers
// (the current one and the next one), read and written through operator()(i, j), with a member function
// doing one explicit step of a nonlinear 5-point stencil in a '#pragma omp parallel for' over the rows and
// then exchanging the buffers with std::swap. The border cells stay fixed (both buffers hold them).
//   u <- u + c (u_W + u_E + u_S + u_N - 4 u) + 0.1 sin(u) u   (interior cells, T steps),
//   J(x) = sum_ij g_ij u_ij^2 at the end, u = x at the start, g_ij = 1 + 0.05 (i + 2 j) constant.
// No closed form over the steps: the gradient is checked against central finite differences over every cell
// (h = 1e-6, tolerance 1e-7); with T = 1 step also against its analytic form (tolerance 1e-12); forward
// tangents along every unit direction against the gradient (1e-12) and along one dense direction against
// gradient . v (1e-12). At 1, 2 and 4 threads at -O2, at 3 threads at -O0.
// RUN: %parad-cxx %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cxx -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include <cmath>
#include <utility>
#include <vector>
#include "parad.h"
#include "check.h"

enum { NG = 7, T = 4 };
static const double C = 0.15;

class Grid {
 public:
  Grid(const double *x, int n) : n_(n), u_(x, x + n * n), v_(u_) {}
  double &operator()(int i, int j) { return u_[i * n_ + j]; }
  double operator()(int i, int j) const { return u_[i * n_ + j]; }
  void step() {
#pragma omp parallel for
    for (int i = 1; i < n_ - 1; i++)
      for (int j = 1; j < n_ - 1; j++) {
        const Grid &g = *this;
        double u = g(i, j);
        v_[i * n_ + j] = u + C * (g(i, j - 1) + g(i, j + 1) + g(i - 1, j) + g(i + 1, j) - 4 * u) + 0.1 * std::sin(u) * u;
      }
    std::swap(u_, v_);
  }
  int size() const { return n_; }

 private:
  int n_;
  std::vector<double> u_, v_;
};

static double weight(int i, int j) { return 1 + 0.05 * (i + 2 * j); }

__attribute__((noinline)) static double objective(const double *x, int steps) {
  Grid g(x, NG);
  for (int t = 0; t < steps; t++) g.step();
  double J = 0;
  for (int i = 0; i < g.size(); i++)
    for (int j = 0; j < g.size(); j++) J += weight(i, j) * g(i, j) * g(i, j);
  return J;
}

static double X0[NG * NG];

static double along(void *ctx, double h) {
  int k = *(int *)ctx;
  double x[NG * NG];
  for (int q = 0; q < NG * NG; q++) x[q] = X0[q] + (q == k) * h;
  return objective(x, T);
}

int main() {
  enum { M = NG * NG };
  double x[M], dx[M] = {0}, d1[M] = {0}, v[M];
  for (int q = 0; q < M; q++) X0[q] = x[q] = std::sin(0.37 * q) + 0.2, v[q] = std::cos(1.3 * q);
  __parad_autodiff((void *)objective, x, dx, parad_const, (int)T);
  double dot = 0;
  for (int k = 0; k < M; k++) {
    CHECK_CLOSE(dx[k], fd_central(along, &k, 0, 1e-6), 1e-7);
    double e[M] = {0};
    e[k] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)objective, x, e, parad_const, (int)T), dx[k], 1e-12);
    dot += dx[k] * v[k];
  }
  CHECK_CLOSE(__parad_fwddiff((void *)objective, x, v, parad_const, (int)T), dot, 1e-12);
  /* one step: u1 = x + C lap(x) + 0.1 sin(x) x inside, x on the border; dJ/dx_k = sum_q 2 g_q u1_q du1_q/dx_k */
  __parad_autodiff((void *)objective, x, d1, parad_const, 1);
  double u1[M], want[M] = {0};
  for (int i = 0; i < NG; i++)
    for (int j = 0; j < NG; j++) {
      int q = i * NG + j;
      bool in = i > 0 && j > 0 && i < NG - 1 && j < NG - 1;
      u1[q] = in ? x[q] + C * (x[q - 1] + x[q + 1] + x[q - NG] + x[q + NG] - 4 * x[q]) + 0.1 * std::sin(x[q]) * x[q] : x[q];
    }
  for (int i = 0; i < NG; i++)
    for (int j = 0; j < NG; j++) {
      int q = i * NG + j;
      double a = 2 * weight(i, j) * u1[q];
      if (!(i > 0 && j > 0 && i < NG - 1 && j < NG - 1)) {
        want[q] += a;
        continue;
      }
      want[q] += a * (1 - 4 * C + 0.1 * (std::cos(x[q]) * x[q] + std::sin(x[q])));
      want[q - 1] += a * C, want[q + 1] += a * C, want[q - NG] += a * C, want[q + NG] += a * C;
    }
  for (int k = 0; k < M; k++) CHECK_CLOSE(d1[k], want[k], 1e-12);
  return check_done();
}
