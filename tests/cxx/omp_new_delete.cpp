// Heap memory inside a parallel region: each thread allocates a scratch array with new[] at the start of the
// region and deletes it at its end, reusing it (overwriting it) for every iteration it runs of an 'omp for';
// each iteration also builds a std::vector of its own. For particle i:
//   l_k = sin((k + 1) x_i) (the vector),  s_k = l_k x_{i+1} (the scratch, x_n := x_0),
//   c_i = sum_k (w_k s_k^2 + sin(s_k)),  w_k = 1 + 0.1 k,  out_i = c_i,  J = sum_i c_i (reduction(+)).
// dJ/dx_i = sum_k (2 w_k s_k + cos s_k) (k + 1) cos((k + 1) x_i) x_{i+1} + sum_k (2 w_k s'_k + cos s'_k) l'_k,
// where l', s' are those of particle i - 1. Checks: J's gradient against this analytic form (tolerance
// 1e-12) and central finite differences (h = 1e-6, 1e-7); the gradient through out (its shadow seeded
// with weights u, J not seeded: a second function returning nothing) against the analytic one (1e-12);
// forward tangents along every unit direction against both gradients (1e-12). At 1, 2 and 4 threads at
// -O2, at 3 threads at -O0.
// RUN: %parad-cxx %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cxx -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include <cmath>
#include <vector>
#include "parad.h"
#include "check.h"

extern "C" void __parad_fwddiff_v(void *, ...); /* for terms(), which returns nothing */

enum { N = 21, K = 5 };

__attribute__((noinline)) static double terms_sum(const double *x, double *out, int n) {
  double J = 0;
#pragma omp parallel reduction(+ : J)
  {
    double *scratch = new double[K];
#pragma omp for schedule(static, 3)
    for (int i = 0; i < n; i++) {
      std::vector<double> l(K);
      for (int k = 0; k < K; k++) l[k] = std::sin((k + 1) * x[i]);
      for (int k = 0; k < K; k++) scratch[k] = l[k] * x[(i + 1) % n];
      double c = 0;
      for (int k = 0; k < K; k++) c += (1 + 0.1 * k) * scratch[k] * scratch[k] + std::sin(scratch[k]);
      out[i] = c;
      J += c;
    }
    delete[] scratch;
  }
  return J;
}

__attribute__((noinline)) static void terms(const double *x, double *out, int n) { terms_sum(x, out, n); }

static double X0[N];

static double along(void *ctx, double h) {
  int q = *(int *)ctx;
  double x[N], out[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == q) * h;
  return terms_sum(x, out, N);
}

int main() {
  double x[N], out[N], dout0[N] = {0}, u[N], du[N], dJ[N] = {0}, dU[N] = {0}, want[N] = {0}, want_u[N] = {0};
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.9 * std::cos(0.8 * i) + 0.1, u[i] = du[i] = std::sin(0.4 * i) - 0.3;
  for (int i = 0; i < N; i++) {
    int j = (i + 1) % N;
    for (int k = 0; k < K; k++) {
      double l = std::sin((k + 1) * x[i]), s = l * x[j], a = 2 * (1 + 0.1 * k) * s + std::cos(s);
      double di = a * (k + 1) * std::cos((k + 1) * x[i]) * x[j], dj = a * l;
      want[i] += di, want[j] += dj;
      want_u[i] += u[i] * di, want_u[j] += u[i] * dj;
    }
  }
  __parad_autodiff((void *)terms_sum, x, dJ, out, dout0, parad_const, (int)N);
  __parad_autodiff((void *)terms, x, dU, out, du, parad_const, (int)N);
  for (int q = 0; q < N; q++) {
    CHECK_CLOSE(dJ[q], want[q], 1e-12);
    CHECK_CLOSE(dJ[q], fd_central(along, &q, 0, 1e-6), 1e-7);
    CHECK_CLOSE(dU[q], want_u[q], 1e-12);
    double v[N] = {0}, t[N], tu = 0;
    v[q] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)terms_sum, x, v, out, t, parad_const, (int)N), dJ[q], 1e-12);
    __parad_fwddiff_v((void *)terms, x, v, out, t, parad_const, (int)N);
    for (int i = 0; i < N; i++) tu += u[i] * t[i];
    CHECK_CLOSE(tu, dU[q], 1e-12);
  }
  return check_done();
}
