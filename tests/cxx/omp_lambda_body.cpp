// A generic parallel_for(n, f) template wrapping '#pragma omp parallel for' around calls of f(i), used with
// capturing lambdas: a map capturing its pointers by value, y_i = sin(x_i) x_i, then an axpy-like update
// capturing everything by reference, the scalar a included (a local copy of the active argument alpha),
// z_i = cos(x_i) + a y_i, then a map with a lambda stored in a variable first, r_i = z_i^2 (x_{i+1} + 2).
//   J(x, alpha) = sum_i r_i (summed after the loops),
//   dJ/dx_i = 2 z_i (x_{i+1} + 2) (-sin x_i + a (cos(x_i) x_i + sin x_i)) + z_{i-1}^2  (x_{n} := 0, z_{-1} := 0),
//   dJ/dalpha = sum_i 2 z_i (x_{i+1} + 2) y_i.
// Gradient (x and alpha) against the analytic form (tolerance 1e-12) and central finite differences (h = 1e-6,
// 1e-7); forward tangents along every unit direction of x and along alpha against the gradient (1e-12), at 1,
// 2 and 4 threads at -O2, at 3 threads at -O0.
// RUN: %parad-cxx %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cxx -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include <cmath>
#include "parad.h"
#include "check.h"

enum { N = 29 };

template <typename F> static void parallel_for(int n, F f) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) f(i);
}

__attribute__((noinline)) static double objective(const double *x, double alpha, int n) {
  double y[N], z[N], r[N];
  double *yp = y;
  parallel_for(n, [=](int i) { yp[i] = std::sin(x[i]) * x[i]; });
  double a = alpha;
  parallel_for(n, [&](int i) {
    z[i] = std::cos(x[i]);
    z[i] += a * y[i];
  });
  auto square = [&z, &r, x, n](int i) { r[i] = z[i] * z[i] * ((i + 1 < n ? x[i + 1] : 0.0) + 2); };
  parallel_for(n, square);
  double J = 0;
  for (int i = 0; i < n; i++) J += r[i];
  return J;
}

static double X0[N], A0 = 0.7;

static double along(void *ctx, double h) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * h;
  return objective(x, A0 + (k == N) * h, N);
}

int main() {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.8 * std::sin(0.5 * i) + 0.1;
  double da = __parad_autodiff((void *)objective, x, dx, A0, parad_const, (int)N);
  double want[N], want_a = 0, z[N], y[N];
  for (int i = 0; i < N; i++) y[i] = std::sin(x[i]) * x[i], z[i] = std::cos(x[i]) + A0 * y[i];
  for (int i = 0; i < N; i++) {
    double next = i + 1 < N ? x[i + 1] : 0.0;
    want[i] = 2 * z[i] * (next + 2) * (-std::sin(x[i]) + A0 * (std::cos(x[i]) * x[i] + std::sin(x[i])));
    if (i > 0) want[i] += z[i - 1] * z[i - 1];
    want_a += 2 * z[i] * (next + 2) * y[i];
  }
  for (int k = 0; k <= N; k++) {
    double g = k < N ? dx[k] : da;
    CHECK_CLOSE(g, k < N ? want[k] : want_a, 1e-12);
    CHECK_CLOSE(g, fd_central(along, &k, 0, 1e-6), 1e-7);
    double e[N] = {0};
    if (k < N) e[k] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)objective, x, e, A0, (double)(k == N), parad_const, (int)N), g, 1e-12);
  }
  return check_done();
}
