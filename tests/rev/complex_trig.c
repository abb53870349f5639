// C complex functions open-coded for differentiation, double and float: csin, ccos, ctan, csinh, ccosh,
// ctanh and cpow (z^w with both active, and a real exponent), composed so each one's derivative matters.
// f(x) = Re and Im parts of the results summed with weights. The values against libm's (1e-13 relative;
// 1e-5 for float), the gradient against central differences (h = 1e-6, 1e-7 relative; float: against
// differences of the float function with h = 1e-3, 2e-3), the tangent along each direction against the
// gradient (1e-12; float 1e-5), at -O2 and -O0. And cpow at z = 0, where its derivative w z^(w-1) is 0
// for Re w > 1 and 1 for w = 1: h(a, b) = Re and Im of z^2 + z^1 + z^(2.5+0.5i), z = a + ib, against
// h_a = 1 + 0.7 * 0, h_b = 0 + 0.7 * 1 there (1e-12, both modes; it was NaN).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <complex.h>
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
float __parad_fwddiff_f(void *, ...) __asm__("__parad_fwddiff");

enum { N = 4 };

static double f(const double *x) {
  double complex z = x[0] + I * x[1], w = x[2] + I * x[3];
  double complex s = csin(z) + 0.5 * ccos(w) + 0.25 * ctan(z * 0.3) + 0.2 * csinh(w * 0.5) + 0.1 * ccosh(z) +
                     0.3 * ctanh(w * 0.4) + cpow(z, w * 0.5) + cpow(w, 1.5);
  return creal(s) + 0.7 * cimag(s);
}

static float g(const float *x) {
  float complex z = x[0] + I * x[1], w = x[2] + I * x[3];
  float complex s = csinf(z) + 0.5f * ccosf(w) + 0.25f * ctanf(z * 0.3f) + 0.2f * csinhf(w * 0.5f) +
                    0.1f * ccoshf(z) + 0.3f * ctanhf(w * 0.4f) + cpowf(z, w * 0.5f);
  return crealf(s) + 0.7f * cimagf(s);
}

static double h(double a, double b) {
  double complex z = a + I * b, s = cpow(z, 2.0) + cpow(z, 1.0) + cpow(z, 2.5 + 0.5 * I);
  return creal(s) + 0.7 * cimag(s);
}
typedef struct {
  double a, b;
} Pair;
Pair __parad_autodiff_pair(void *, ...) __asm__("__parad_autodiff");

/* the value the derivative computes, through the open-coded functions */
static void f_into(const double *x, double *out) { *out = f(x); }
static void g_into(const float *x, float *out) { *out = g(x); }

int main(void) {
  double x[N] = {0.6, -0.4, 1.1, 0.3}, dx[N] = {0}, out = 0, dout = 1, ignored[N] = {0};
  __parad_autodiff((void *)f_into, x, ignored, &out, &dout);
  CHECK_CLOSE(out, f(x), 1e-13);
  __parad_autodiff((void *)f, x, dx);
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], v[N] = {0};
    for (int j = 0; j < N; j++) xp[j] = xm[j] = x[j];
    xp[i] += 1e-6, xm[i] -= 1e-6, v[i] = 1;
    CHECK_CLOSE(dx[i], (f(xp) - f(xm)) / 2e-6, 1e-7);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), dx[i], 1e-12);
  }
  float y[N] = {0.6f, -0.4f, 1.1f, 0.3f}, dy[N] = {0}, fout = 0, fdout = 1, fignored[N] = {0};
  __parad_autodiff((void *)g_into, y, fignored, &fout, &fdout);
  CHECK_CLOSE(fout, g(y), 1e-5);
  __parad_autodiff((void *)g, y, dy);
  for (int i = 0; i < N; i++) {
    float yp[N], ym[N], v[N] = {0};
    for (int j = 0; j < N; j++) yp[j] = ym[j] = y[j];
    yp[i] += 1e-3f, ym[i] -= 1e-3f, v[i] = 1;
    CHECK_CLOSE(dy[i], (g(yp) - g(ym)) / 2e-3, 2e-3);
    CHECK_CLOSE(__parad_fwddiff_f((void *)g, y, v), dy[i], 1e-5);
  }
  Pair at0 = __parad_autodiff_pair((void *)h, 0.0, 0.0);
  CHECK_CLOSE(at0.a, 1, 1e-12);
  CHECK_CLOSE(at0.b, 0.7, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)h, 0.0, 1.0, 0.0, 0.0), 1, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)h, 0.0, 0.0, 0.0, 1.0), 0.7, 1e-12);
  return check_done();
}
