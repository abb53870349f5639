// 'reduction(max : m)': the largest of v_i = x_i^2 + 0.05 i over a 'parallel for' (written with fmax), and in
// a second function with an if-statement under 'schedule(dynamic, 3)', combined with a '+' reduction: g = m *
// sum_i x_i. The values are chosen so that the largest is unique, with a margin far larger than the
// finite-difference step, so that the max is differentiable there: dm/dx_k is 2 x_k at the arg max and 0
// elsewhere, whichever thread found it. Analytic gradients (tolerance 1e-12), forward tangents along every
// unit direction (1e-12), central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=1 %t0 && OMP_NUM_THREADS=2 %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 31 };

__attribute__((noinline)) static double maxf(const double *x, int n) {
  double m = -INFINITY;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) m = fmax(m, x[i] * x[i] + 0.05 * i);
  return m;
}

__attribute__((noinline)) static double maxsum(const double *x, int n) {
  double m = -1e300, s = 0;
#pragma omp parallel for reduction(max : m) reduction(+ : s) schedule(dynamic, 3)
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i] + 0.05 * i;
    if (v > m) m = v;
    s += x[i];
  }
  return m * s;
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return maxf(x, N) + maxsum(x, N);
}

int main(void) {
  double x[N], d1[N] = {0}, d2[N] = {0}, e[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = cos(0.9 * i) * (1 + 0.01 * i);
  int arg = 0;
  double m = -INFINITY, s = 0;
  for (int i = 0; i < N; i++) {
    double v = x[i] * x[i] + 0.05 * i;
    if (v > m) m = v, arg = i;
    s += x[i];
  }
  for (int i = 0; i < N; i++) /* the test's premise: a unique maximum, by a margin */
    if (i != arg && !(x[i] * x[i] + 0.05 * i < m - 1e-3)) printf("FAIL: the maximum is not isolated\n"), check_failures++;
  __parad_autodiff((void *)maxf, x, d1, parad_const, N);
  __parad_autodiff((void *)maxsum, x, d2, parad_const, N);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(d1[k], k == arg ? 2 * x[k] : 0.0, 1e-12);
    CHECK_CLOSE(d2[k], (k == arg ? 2 * x[k] * s : 0.0) + m, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t1 = __parad_fwddiff((void *)maxf, x, e, parad_const, N), t2 = __parad_fwddiff((void *)maxsum, x, e, parad_const, N);
    CHECK_CLOSE(d1[k], t1, 1e-12);
    CHECK_CLOSE(d2[k], t2, 1e-12);
    CHECK_CLOSE(t1 + t2, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
