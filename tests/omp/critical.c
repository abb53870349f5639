// 'critical' sections, unnamed and named, updating shared variables commutatively: inside a 'parallel for',
// each iteration adds v_i^2 (v_i = x_i x_{i+1}) to ss under an unnamed critical section, sin(x_i) to s2 under
// 'critical(second)', and x_i^3 to the shared array element b[i mod 3] under 'critical(bins)'. The order the
// threads enter changes only the rounding. The reverse sweep runs the sections one at a time in the opposite
// order. f = ss + s2^2 + sum_r b_r^2. Analytic gradient (tolerance 1e-12), forward tangents along every unit
// direction (1e-12), central finite differences (h = 1e-6, tolerance 1e-7). Also built at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 35 };

__attribute__((noinline)) static double f(const double *x, int n) {
  double ss = 0, s2 = 0, b[3] = {0, 0, 0};
#pragma omp parallel for schedule(static, 2)
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[(i + 1) % n];
#pragma omp critical
    ss += v * v;
#pragma omp critical(second)
    { s2 += sin(x[i]); }
#pragma omp critical(bins)
    b[i % 3] += x[i] * x[i] * x[i];
  }
  return ss + s2 * s2 + b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, e[N], s2 = 0, b[3] = {0, 0, 0};
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.7 * sin(0.8 * i) + 0.15;
  __parad_autodiff((void *)f, x, dx, parad_const, N);
  for (int i = 0; i < N; i++) s2 += sin(x[i]), b[i % 3] += x[i] * x[i] * x[i];
  for (int k = 0; k < N; k++) {
    int kp = (k + 1) % N, km = (k + N - 1) % N;
    double want = 2 * x[k] * x[kp] * x[kp] + 2 * x[km] * x[km] * x[k] + 2 * s2 * cos(x[k]) + 2 * b[k % 3] * 3 * x[k] * x[k];
    CHECK_CLOSE(dx[k], want, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
