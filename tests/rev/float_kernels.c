// Single precision in reverse mode: a float kernel with sinf, expf, sqrtf over a float array, writing a
// float output array (its shadow seeded) and returning a float; the gradient of the float scalar a comes
// back as a float. Compared with central finite differences of the same formulas evaluated in double
// (h = 1e-6), tolerance 1e-4 relative (float rounding of the adjoint computation), and with the forward
// tangent along every unit direction (tolerance 1e-5: both are float computations in a different order).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

float __parad_autodiff_f(void *, ...);
float __parad_fwddiff_f(void *, ...);

enum { N = 16 };

__attribute__((noinline)) static float kernel(const float *x, float *y, int n, float a) {
  float s = 0;
  for (int i = 0; i < n; i++) {
    float v = sinf(a * x[i]) + expf(-x[i] * x[i]) * sqrtf(1.0f + x[i] * x[i] + i);
    y[i] = v * a;
    s += v * v;
  }
  return sqrtf(s);
}

static double kernel_d(const double *x, double *y, int n, double a) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = sin(a * x[i]) + exp(-x[i] * x[i]) * sqrt(1.0 + x[i] * x[i] + i);
    y[i] = v * a;
    s += v * v;
  }
  return sqrt(s);
}

static float X0[N], SEED[N];

static double along(void *p, double t) { /* result + SEED . y along unit direction k of (x, a) */
  int k = *(int *)p;
  double x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  double r = kernel_d(x, y, N, 0.8 + (k == N) * t);
  for (int i = 0; i < N; i++) r += SEED[i] * y[i];
  return r;
}

int main(void) {
  float x[N], dx[N] = {0}, y[N], dy[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.2f * i - 1.3f, SEED[i] = dy[i] = (i % 3 == 0) ? 0.5f : 0.0f;
  float da = __parad_autodiff_f((void *)kernel, x, dx, y, dy, parad_const, N, 0.8f);
  for (int k = 0; k <= N; k++) {
    float got = k < N ? dx[k] : da;
    CHECK_CLOSE(got, fd_central(along, &k, 0, 1e-6), 1e-4);
    float e[N], y2[N], dy2[N];
    for (int i = 0; i < N; i++) e[i] = i == k;
    float t = __parad_fwddiff_f((void *)kernel, x, e, y2, dy2, parad_const, N, 0.8f, (float)(k == N));
    for (int i = 0; i < N; i++) t += SEED[i] * dy2[i];
    CHECK_CLOSE(got, t, 1e-5);
  }
  return check_done();
}
