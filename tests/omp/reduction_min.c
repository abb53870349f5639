// 'reduction(min : m)': the smallest of v_i = (x_i - 0.3)^2 + 0.02 i, in a 'parallel for' written with fmin,
// and in a 'parallel' region whose 'omp for schedule(guided)' uses an if-statement; the second function
// returns exp(m) + m * x_0. The minimum is unique with a margin far above the finite-difference step, so
// dm/dx_k = 2 (x_k - 0.3) at the arg min and 0 elsewhere. Analytic gradients (tolerance 1e-12), forward
// tangents along every unit direction (1e-12), central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 29 };

__attribute__((noinline)) static double minf(const double *x, int n) {
  double m = INFINITY;
#pragma omp parallel for reduction(min : m)
  for (int i = 0; i < n; i++) m = fmin(m, (x[i] - 0.3) * (x[i] - 0.3) + 0.02 * i);
  return m;
}

__attribute__((noinline)) static double minexp(const double *x, int n) {
  double m = 1e300;
#pragma omp parallel
  {
#pragma omp for reduction(min : m) schedule(guided)
    for (int i = 0; i < n; i++) {
      double v = (x[i] - 0.3) * (x[i] - 0.3) + 0.02 * i;
      if (v < m) m = v;
    }
  }
  return exp(m) + m * x[0];
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return minf(x, N) + minexp(x, N);
}

int main(void) {
  double x[N], d1[N] = {0}, d2[N] = {0}, e[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = 1.5 * sin(1.3 * i + 0.2);
  int arg = 0;
  double m = INFINITY;
  for (int i = 0; i < N; i++) {
    double v = (x[i] - 0.3) * (x[i] - 0.3) + 0.02 * i;
    if (v < m) m = v, arg = i;
  }
  for (int i = 0; i < N; i++) /* the test's premise: a unique minimum, by a margin */
    if (i != arg && !((x[i] - 0.3) * (x[i] - 0.3) + 0.02 * i > m + 1e-3)) printf("FAIL: the minimum is not isolated\n"), check_failures++;
  __parad_autodiff((void *)minf, x, d1, parad_const, N);
  __parad_autodiff((void *)minexp, x, d2, parad_const, N);
  for (int k = 0; k < N; k++) {
    double dm = k == arg ? 2 * (x[k] - 0.3) : 0.0;
    CHECK_CLOSE(d1[k], dm, 1e-12);
    CHECK_CLOSE(d2[k], (exp(m) + x[0]) * dm + (k == 0 ? m : 0.0), 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t1 = __parad_fwddiff((void *)minf, x, e, parad_const, N), t2 = __parad_fwddiff((void *)minexp, x, e, parad_const, N);
    CHECK_CLOSE(d1[k], t1, 1e-12);
    CHECK_CLOSE(d2[k], t2, 1e-12);
    CHECK_CLOSE(t1 + t2, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
