// Mixed precision in reverse mode: a float result computed from double parameters (the seed is a float
// 1.0, the adjoints are truncated and extended on the way back), a double result computed from a float
// array accumulated in double, and a double array written into a float output array whose shadow is
// seeded. Analytic gradients (tolerance 1e-5 relative where a float rounding is in the path) and forward
// tangents along every unit direction (tolerance 1e-5).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

typedef struct { double dx, dy; } G2;
G2 __parad_autodiff2(void *, ...);
void __parad_autodiff(void *, ...);
float __parad_fwddiff_f(void *, ...);
double __parad_fwddiff(void *, ...);
void __parad_fwddiff_v(void *, ...);

__attribute__((noinline)) static float narrow(double x, double y) {
  float a = (float)(x * y);
  return a * a + sinf((float)x) * (float)y;
}

__attribute__((noinline)) static double widen(const float *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (double)v[i] * v[i] * (i + 1) + exp((double)v[i] * 0.5);
  return s;
}

__attribute__((noinline)) static void to_float(const double *x, float *out, int n) {
  for (int i = 0; i < n; i++) out[i] = (float)(x[i] * x[(i + 1) % n]);
}

enum { N = 5 };

int main(void) {
  double x = 0.7, y = -1.3;
  G2 g = __parad_autodiff2((void *)narrow, x, y);
  CHECK_CLOSE(g.dx, 2 * x * y * y + cos(x) * y, 1e-5);
  CHECK_CLOSE(g.dy, 2 * x * x * y + sin(x), 1e-5);
  CHECK_CLOSE(g.dx, __parad_fwddiff_f((void *)narrow, x, 1.0, y, 0.0), 1e-5);
  CHECK_CLOSE(g.dy, __parad_fwddiff_f((void *)narrow, x, 0.0, y, 1.0), 1e-5);

  float v[N] = {0.5f, -1.25f, 2.0f, 0.75f, -0.5f}, dv[N] = {0}, e[N];
  __parad_autodiff((void *)widen, v, dv, parad_const, N);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dv[k], 2.0 * v[k] * (k + 1) + 0.5 * exp(v[k] * 0.5), 1e-5);
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(dv[k], __parad_fwddiff((void *)widen, v, e, parad_const, N), 1e-5);
  }

  double xs[N] = {0.3, -0.9, 1.4, 0.6, -0.2}, dxs[N] = {0};
  float out[N], seed[N] = {1.0f, 0.5f, -2.0f, 0.25f, 0.0f}, dout[N];
  for (int i = 0; i < N; i++) dout[i] = seed[i];
  __parad_autodiff((void *)to_float, xs, dxs, out, dout, parad_const, N);
  for (int k = 0; k < N; k++) {
    int prev = (k + N - 1) % N;
    CHECK_CLOSE(dxs[k], seed[k] * xs[(k + 1) % N] + seed[prev] * xs[prev], 1e-5);
    CHECK_CLOSE(dout[k], 0.0, 0);
    double ex[N];
    float o2[N], t[N];
    for (int i = 0; i < N; i++) ex[i] = i == k;
    __parad_fwddiff_v((void *)to_float, xs, ex, o2, t, parad_const, N);
    double dot = 0;
    for (int i = 0; i < N; i++) dot += seed[i] * t[i];
    CHECK_CLOSE(dxs[k], dot, 1e-5);
  }
  return check_done();
}
