// Single-precision data in parallel regions: float arrays, a 'parallel for' writing a float output y_i = x_i
// sinf(x_{i+1}) + 0.5 expf(-x_i^2), then a float '+' reduction s = sum_i c_i y_i^2 in a second region, and an
// atomic float update. Reverse gradient checked against the analytic gradient computed in double (tolerance
// 1e-5: float rounding, about 6e-8 relative per operation, over sums of ~40 terms), against forward tangents
// along every unit direction (1e-5: both are float computations with different rounding), and against central
// finite differences computed in double precision on a double copy of the function (h = 1e-6, tolerance 1e-4,
// which float rounding of the gradient dominates).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
float __parad_fwddiff(void *, ...);

enum { N = 40 };

__attribute__((noinline)) static float f(const float *x, const float *c, int n) {
  float *y = malloc(n * sizeof *y), s = 0, t = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = x[i] * sinf(x[(i + 1) % n]) + 0.5f * expf(-x[i] * x[i]);
#pragma omp parallel
  {
#pragma omp for reduction(+ : s) schedule(static, 4)
    for (int i = 0; i < n; i++) s += c[i] * y[i] * y[i];
#pragma omp for
    for (int i = 0; i < n; i++) {
#pragma omp atomic
      t += 0.1f * x[i];
    }
  }
  free(y);
  return s + t * t;
}

/* the same function in double precision, for finite differences */
static double fd(const double *x, const float *c, int n) {
  double s = 0, t = 0;
  for (int i = 0; i < n; i++) {
    double y = x[i] * sin(x[(i + 1) % n]) + 0.5 * exp(-x[i] * x[i]);
    s += c[i] * y * y;
    t += 0.1 * x[i];
  }
  return s + t * t;
}

static float X0[N], C[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return fd(x, C, N);
}

int main(void) {
  float x[N], dx[N] = {0}, e[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.9f * sinf(0.7f * i) + 0.2f, C[i] = 1.0f + 0.02f * i;
  __parad_autodiff((void *)f, x, dx, parad_const, C, parad_const, N);
  double t = 0;
  for (int i = 0; i < N; i++) t += 0.1 * x[i];
  for (int k = 0; k < N; k++) {
    int kp = (k + 1) % N, km = (k + N - 1) % N;
    double xk = x[k], yk = xk * sin((double)x[kp]) + 0.5 * exp(-xk * xk), ykm = x[km] * sin(xk) + 0.5 * exp(-(double)x[km] * x[km]);
    double want = 2 * C[k] * yk * (sin((double)x[kp]) - xk * exp(-xk * xk)) + 2 * C[km] * ykm * x[km] * cos(xk) + 0.2 * t;
    CHECK_CLOSE(dx[k], want, 1e-5);
    for (int i = 0; i < N; i++) e[i] = i == k;
    float tf = __parad_fwddiff((void *)f, x, e, parad_const, C, parad_const, N);
    CHECK_CLOSE(dx[k], tf, 1e-5);
    CHECK_CLOSE(dx[k], fd_central(along, &k, 0, 1e-6), 1e-4);
  }
  return check_done();
}
