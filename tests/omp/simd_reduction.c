// 'simd' loops with reductions: the optimiser vectorises them before Parad differentiates (the pragma
// forces it even in the light pipeline), so the reduction arrives as llvm.vector.reduce.fadd / fmul /
// fmax / fmin over the lanes (once refused as a call without a body). parallel for simd reduction(+),
// a serial simd reduction(*), and simd reductions max and min:
//   sum(x)  = sum_i x_i^3                        d/dx_k = 3 x_k^2
//   prod(x) = prod_i (1 + 0.1 x_i^2)             d/dx_k = prod * 0.2 x_k / (1 + 0.1 x_k^2)
//   max(x)  = max_i x_i x_0 (x_0 > 0)            d/dx_k = x_0 at the arg max, plus max / x_0 for k = 0
//   min(x)  = min_i (x_i - 0.05 i)^2             d/dx_k = 2 (x_k - 0.05 k) at the arg min
// (tolerance 1e-12), forward tangents along every unit direction (1e-12), vector forward (width 2) against
// the scalar tangents (1e-12).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=1 %t0 && OMP_NUM_THREADS=2 %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
typedef struct { double d[2]; } Two;
Two __parad_fwddiff2(void *, ...);

enum { N = 37 };

__attribute__((noinline)) static double sum(const double *x, int n) {
  double a = 0;
#pragma omp parallel for simd reduction(+ : a)
  for (int i = 0; i < n; i++) a += x[i] * x[i] * x[i];
  return a;
}

__attribute__((noinline)) static double prod(const double *x, int n) {
  double p = 1;
#pragma omp simd reduction(* : p)
  for (int i = 0; i < n; i++) p *= 1 + 0.1 * x[i] * x[i];
  return p;
}

__attribute__((noinline)) static double max(const double *x, int n) {
  double m = -1e300;
#pragma omp simd reduction(max : m)
  for (int i = 0; i < n; i++) m = fmax(m, x[i] * x[0]);
  return m;
}

__attribute__((noinline)) static double min(const double *x, int n) {
  double m = 1e300;
#pragma omp simd reduction(min : m)
  for (int i = 0; i < n; i++) m = fmin(m, (x[i] - 0.05 * i) * (x[i] - 0.05 * i));
  return m;
}

static int argbest(const double *v, int n, int sign) {
  int b = 0;
  for (int i = 1; i < n; i++)
    if (sign * v[i] > sign * v[b]) b = i;
  return b;
}

#define CHECK_FUNCTION(f, want)                                                                  \
  do {                                                                                           \
    double dx[N] = {0}, e0[N], e1[N];                                                            \
    __parad_autodiff((void *)f, x, dx, N);                                                       \
    for (int k = 0; k < N; k++) {                                                                \
      CHECK_CLOSE(dx[k], want, 1e-12);                                                           \
      double t = __parad_fwddiff((void *)f, x, (for_k(e0, k), e0), N);                           \
      CHECK_CLOSE(t, dx[k], 1e-12);                                                              \
      Two t2 = __parad_fwddiff2((void *)f, parad_width, 2, x, e0, (for_k(e1, (k + 5) % N), e1), N); \
      CHECK_CLOSE(t2.d[0], dx[k], 1e-12);                                                        \
      CHECK_CLOSE(t2.d[1], dx[(k + 5) % N], 1e-12);                                              \
    }                                                                                            \
  } while (0)

static void for_k(double *e, int k) {
  for (int i = 0; i < N; i++) e[i] = i == k;
}

int main(void) {
  double x[N], p = 1, v[N], w[N];
  for (int i = 0; i < N; i++) x[i] = 0.6 * sin(0.7 * i + 0.3) + 0.45;
  for (int i = 0; i < N; i++) p *= 1 + 0.1 * x[i] * x[i], v[i] = x[i] * x[0], w[i] = (x[i] - 0.05 * i) * (x[i] - 0.05 * i);
  int imax = argbest(v, N, 1), imin = argbest(w, N, -1);
  CHECK_FUNCTION(sum, 3 * x[k] * x[k]);
  CHECK_FUNCTION(prod, p * 0.2 * x[k] / (1 + 0.1 * x[k] * x[k]));
  CHECK_FUNCTION(max, (k == imax ? x[0] : 0) + (k == 0 ? v[imax] / x[0] : 0));
  CHECK_FUNCTION(min, k == imin ? 2 * (x[k] - 0.05 * k) : 0);
  return check_done();
}
