// Bessel functions of integer order, jn and yn (and jnf, ynf), in reverse, forward and vector forward
// mode: against the recurrence Jn' = (J(n-1) - J(n+1)) / 2 and Yn' alike (1e-13; J(-1) = -J1, so n = 0
// gives -J1), against central differences (h = 1e-6, 1e-7), and in a sum over orders with the order a
// loop counter, as a Fourier-Bessel series is written. They were refused before ("cannot differentiate a
// call to 'jn', which no file of the program compiled by parad-cc defines").
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
float __parad_autodiff_f(void *, ...) __asm__("__parad_autodiff");
typedef struct { double d[2]; } D2;
D2 __parad_fwddiff_v2(void *, ...) __asm__("__parad_fwddiff");

static double bjn(double x, int n) { return jn(n, x); }
static double byn(double x, int n) { return yn(n, x); }
static int order;
static double bjn_ctx(void *c, double x) { (void)c; return jn(order, x); }
static double byn_ctx(void *c, double x) { (void)c; return yn(order, x); }
static float bjnf(float x, int n) { return jnf(n, x) * ynf(n, x); }

/* a Fourier-Bessel series in the radius r and its coefficients: sum_k c[k] J_k(a r) */
static double series(const double *c, double r, double a, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) s += c[k] * jn(k, a * r) + 0.1 * c[k] * yn(k, r + 1);
  return s;
}
static double series_r(void *ctx, double r) { return series((const double *)ctx, r, 1.7, 5); }

int main(void) {
  for (int n = 0; n < 5; n++)
    for (double x = 0.3; x < 12; x += 1.45) {
      order = n;
      double dj = 0.5 * (jn(n - 1, x) - jn(n + 1, x)), dy = 0.5 * (yn(n - 1, x) - yn(n + 1, x));
      CHECK_CLOSE(__parad_autodiff((void *)bjn, x, parad_const, n), dj, 1e-13);
      CHECK_CLOSE(__parad_fwddiff((void *)bjn, x, 1.0, parad_const, n), dj, 1e-13);
      CHECK_CLOSE(__parad_autodiff((void *)byn, x, parad_const, n), dy, 1e-13);
      CHECK_CLOSE(__parad_autodiff((void *)bjn, x, parad_const, n), fd_central(bjn_ctx, NULL, x, 1e-6), 1e-7);
      CHECK_CLOSE(__parad_fwddiff((void *)byn, x, 1.0, parad_const, n), fd_central(byn_ctx, NULL, x, 1e-6), 1e-7);
    }
  CHECK_CLOSE(__parad_autodiff((void *)bjn, 0.0, parad_const, 1), 0.5, 1e-13);
  for (int n = 0; n < 3; n++) {
    float x = 1.3f;
    double want = 0.5 * (jn(n - 1, x) - jn(n + 1, x)) * yn(n, x) + jn(n, x) * 0.5 * (yn(n - 1, x) - yn(n + 1, x));
    CHECK_CLOSE(__parad_autodiff_f((void *)bjnf, x, parad_const, n), want, 1e-5);
  }
  double c[5] = {1, -0.5, 0.25, 0.3, -0.2}, gc[5] = {0}, r = 2.2;
  double gr = __parad_autodiff((void *)series, parad_dup, c, gc, r, parad_const, 1.7, parad_const, 5);
  CHECK_CLOSE(gr, fd_central(series_r, c, r, 1e-6), 1e-7);
  for (int k = 0; k < 5; k++) CHECK_CLOSE(gc[k], jn(k, 1.7 * r) + 0.1 * yn(k, r + 1), 1e-13);
  D2 both = __parad_fwddiff_v2((void *)bjn, parad_width, 2, 2.5, 1.0, -2.0, parad_const, 3);
  CHECK_CLOSE(both.d[0], 0.5 * (jn(2, 2.5) - jn(4, 2.5)), 1e-13);
  CHECK_CLOSE(both.d[1], -(jn(2, 2.5) - jn(4, 2.5)), 1e-13);
  return check_done();
}
