// The complex inverse functions casin, cacos, catan, casinh, cacosh, catanh (double and float): the value is
// the library's, taken at the operand without its derivative, plus f'(z) (z - z0), zero, which carries the
// derivative f'(z) dz (1/sqrt(1 - z^2), -1/sqrt(1 - z^2), 1/(1 + z^2), 1/sqrt(1 + z^2),
// 1/(sqrt(z - 1) sqrt(z + 1)), 1/(1 - z^2)). Checked at points in all four quadrants, away from the branch
// cuts: the value the derivative computes equals libm's exactly (also at z = 1e-9 + 2e-9i, where a formula of
// logarithms keeps only six digits); the gradient of Re f + 0.7 Im f against central differences
// (h = 1e-6, 1e-7 relative) and against the analytic f' (1e-12), in reverse and forward mode; float against
// the double derivative (1e-5); a sum of all six over an array, reverse against forward (1e-12). Each was
// refused before ("cannot differentiate a call to 'catan', which no file ... defines").
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <complex.h>
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
float __parad_autodiff_f(void *, ...) __asm__("__parad_autodiff");
typedef struct { double a, b; } Pair;
Pair __parad_autodiff_pair(void *, ...) __asm__("__parad_autodiff");

static double complex apply(int k, double complex z) {
  switch (k) {
  case 0: return casin(z);
  case 1: return cacos(z);
  case 2: return catan(z);
  case 3: return casinh(z);
  case 4: return cacosh(z);
  default: return catanh(z);
  }
}
static float complex applyf(int k, float complex z) {
  switch (k) {
  case 0: return casinf(z);
  case 1: return cacosf(z);
  case 2: return catanf(z);
  case 3: return casinhf(z);
  case 4: return cacoshf(z);
  default: return catanhf(z);
  }
}
/* f'(z) from the identities above */
static double complex slope(int k, double complex z) {
  switch (k) {
  case 0: return 1 / csqrt(1 - z * z);
  case 1: return -1 / csqrt(1 - z * z);
  case 2: return 1 / (1 + z * z);
  case 3: return 1 / csqrt(1 + z * z);
  case 4: return 1 / (csqrt(z - 1) * csqrt(z + 1));
  default: return 1 / (1 - z * z);
  }
}

static double weighted(double x, double y, int k) {
  double complex w = apply(k, x + I * y);
  return creal(w) + 0.7 * cimag(w);
}
static float weightedf(float x, float y, int k) {
  float complex w = applyf(k, x + I * y);
  return crealf(w) + 0.7f * cimagf(w);
}
static void into(const double *z, double *out, int k) {
  double complex w = apply(k, z[0] + I * z[1]);
  out[0] = creal(w), out[1] = cimag(w);
}
static double all_six(const double *z, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double complex c = z[2 * i] + I * z[2 * i + 1];
    double complex w = casin(c) * 0.3 + cacos(c) + catan(c) * 2 + casinh(c) - cacosh(c) * 0.5 + catanh(c);
    s += creal(w) * cimag(w);
  }
  return s;
}

static int kind;
static double along_x(void *c, double x) { return weighted(x, *(double *)c, kind); }
static double along_y(void *c, double y) { return weighted(*(double *)c, y, kind); }

int main(void) {
  double pts[][2] = {{0.3, 0.4}, {-0.7, 0.2}, {1.5, -0.6}, {-2.0, -1.1}, {0.1, -3.0}, {1e-9, 2e-9}};
  for (int k = 0; k < 6; k++)
    for (int i = 0; i < 6; i++) {
      double x = pts[i][0], y = pts[i][1];
      kind = k;
      double complex d = slope(k, x + I * y);
      Pair g = __parad_autodiff_pair((void *)weighted, x, y, parad_const, k);
      /* d/dx (Re w + 0.7 Im w) = Re f' + 0.7 Im f'; d/dy = -Im f' + 0.7 Re f' */
      CHECK_CLOSE(g.a, creal(d) + 0.7 * cimag(d), 1e-12);
      CHECK_CLOSE(g.b, -cimag(d) + 0.7 * creal(d), 1e-12);
      CHECK_CLOSE(__parad_fwddiff((void *)weighted, x, 1.0, y, 0.0, parad_const, k), g.a, 1e-12);
      CHECK_CLOSE(__parad_fwddiff((void *)weighted, x, 0.0, y, 1.0, parad_const, k), g.b, 1e-12);
      if (i < 5) { /* the last point is within h of a cut for cacosh */
        CHECK_CLOSE(g.a, fd_central(along_x, &y, x, 1e-6), 1e-7);
        CHECK_CLOSE(g.b, fd_central(along_y, &x, y, 1e-6), 1e-7);
      }
      double z[2] = {x, y}, dz[2] = {0}, out[2] = {0}, dout[2] = {1, 0};
      __parad_autodiff((void *)into, z, dz, out, dout, parad_const, k);
      double complex lib = apply(k, x + I * y);
      CHECK_CLOSE(out[0], creal(lib), 0.0);
      CHECK_CLOSE(out[1], cimag(lib), 0.0);
      CHECK_CLOSE(dz[0], creal(d), 1e-12);
      CHECK_CLOSE(dz[1], -cimag(d), 1e-12);
      if (i < 4) {
        float gf = __parad_autodiff_f((void *)weightedf, (float)x, parad_const, (float)y, parad_const, k);
        CHECK_CLOSE(gf, creal(d) + 0.7 * cimag(d), 1e-5);
      }
    }
  double c[8] = {0.3, 0.4, -0.7, 0.2, 1.5, -0.6, -2.0, -1.1}, dc[8] = {0};
  __parad_autodiff((void *)all_six, c, dc, parad_const, 4);
  for (int j = 0; j < 8; j++) {
    double v[8] = {0};
    v[j] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)all_six, c, v, parad_const, 4), dc[j], 1e-12);
  }
  return check_done();
}
