// 'reduction(* : p)': a product over all iterations, P = prod_i (1 + 0.3 sin x_i) (all factors in [0.7, 1.3]),
// combined thread by thread; the adjoint of each thread's partial product needs the other threads' partial
// products. A second function mixes '*' and '+' reductions in one loop: g = (prod_i (1 + 0.1 x_i^2)) * (sum_i
// x_i). Analytic gradients dP/dx_k = P 0.3 cos x_k / (1 + 0.3 sin x_k) and the product rule for g (tolerance
// 1e-12), forward tangents along every unit direction (1e-12), central finite differences (h = 1e-6, tolerance
// 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 24 };

__attribute__((noinline)) static double prodf(const double *x, int n) {
  double p = 1;
#pragma omp parallel for reduction(* : p) schedule(static, 2)
  for (int i = 0; i < n; i++) p *= 1 + 0.3 * sin(x[i]);
  return p;
}

__attribute__((noinline)) static double mixed(const double *x, int n) {
  double p = 1, s = 0;
#pragma omp parallel for reduction(* : p) reduction(+ : s)
  for (int i = 0; i < n; i++) {
    p *= 1 + 0.1 * x[i] * x[i];
    s += x[i];
  }
  return p * s;
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return prodf(x, N) + mixed(x, N);
}

int main(void) {
  double x[N], dp[N] = {0}, dm[N] = {0}, e[N], P = 1, Q = 1, S = 0;
  for (int i = 0; i < N; i++) X0[i] = x[i] = 1.3 * cos(0.5 * i) + 0.1;
  __parad_autodiff((void *)prodf, x, dp, parad_const, N);
  __parad_autodiff((void *)mixed, x, dm, parad_const, N);
  for (int i = 0; i < N; i++) P *= 1 + 0.3 * sin(x[i]), Q *= 1 + 0.1 * x[i] * x[i], S += x[i];
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dp[k], P * 0.3 * cos(x[k]) / (1 + 0.3 * sin(x[k])), 1e-12);
    CHECK_CLOSE(dm[k], Q * 0.2 * x[k] / (1 + 0.1 * x[k] * x[k]) * S + Q, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double tp = __parad_fwddiff((void *)prodf, x, e, parad_const, N), tm = __parad_fwddiff((void *)mixed, x, e, parad_const, N);
    CHECK_CLOSE(dp[k], tp, 1e-12);
    CHECK_CLOSE(dm[k], tm, 1e-12);
    CHECK_CLOSE(tp + tm, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
