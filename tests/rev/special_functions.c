// lgamma and tgamma (and their float forms) in both modes: their derivatives are digamma(x) and
// tgamma(x) digamma(x), where digamma is the runtime's (libm has none). Against known values of digamma
// (1e-12: psi(1) = -Euler's gamma, psi(1/2) = -gamma - 2 ln 2, psi(-1/2) = 2 - gamma - 2 ln 2 through the
// reflection, psi(30) by the series past its shift; 1e-5 for float), against central differences (h = 1e-6,
// 1e-7) at arguments on both sides of the shift and the reflection, in a sum over an array in both modes and
// vector forward mode. The Bessel functions j0, j1, y0, y1 (J0' = -J1, J1' = J0 - J1/x, 1/2 at 0; alike for Y),
// fdim, logb and nextafter (its partials 1 and 0) against those identities (1e-13) and central differences
// (1e-7). Each was refused before
// ("cannot differentiate a call to 'lgamma', which no file of the program compiled by parad-cc defines").
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
typedef struct { double d[2]; } D2;
D2 __parad_fwddiff_v2(void *, ...) __asm__("__parad_fwddiff");

static const double euler = 0.57721566490153286, ln2 = 0.69314718055994531;

static double lg(double x) { return lgamma(x); }
static double tg(double x) { return tgamma(x); }
static float lgf(float x) { return lgammaf(x); }
static float tgf(float x) { return tgammaf(x); }
static double lg_ctx(void *c, double x) { (void)c; return lgamma(x); }
static double tg_ctx(void *c, double x) { (void)c; return tgamma(x); }

static double bj0(double x) { return j0(x); }
static double bj1(double x) { return j1(x); }
static double by0(double x) { return y0(x); }
static double by1(double x) { return y1(x); }
static double dim(double x) { return fdim(x, 0.6) + fdim(0.6, x) * 2 + logb(x) * x + nextafter(x * x, 0.0) * 3; }
static double dim_ctx(void *c, double x) { (void)c; return dim(x); }
static double bj1_ctx(void *c, double x) { (void)c; return j1(x); }
static double by1_ctx(void *c, double x) { (void)c; return y1(x); }

/* a log-likelihood of Gamma-distributed data: sum_i (k - 1) log y_i - y_i / t - lgamma(k) - k log t */
enum { N = 6 };
static double loglik(const double *p) {
  static const double y[N] = {0.7, 1.9, 3.2, 0.4, 2.6, 5.1};
  double k = p[0], t = p[1], s = 0;
  for (int i = 0; i < N; i++) s += (k - 1) * log(y[i]) - y[i] / t - lgamma(k) - k * log(t);
  return s + tgamma(0.5 * k) * 0.01;
}

int main(void) {
  /* known values */
  CHECK_CLOSE(__parad_autodiff((void *)lg, 1.0), -euler, 1e-12);
  CHECK_CLOSE(__parad_autodiff((void *)lg, 0.5), -euler - 2 * ln2, 1e-12);
  CHECK_CLOSE(__parad_autodiff((void *)lg, -0.5), 2 - euler - 2 * ln2, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)lg, 1.0, 1.0), -euler, 1e-12);
  CHECK_CLOSE(__parad_autodiff((void *)tg, 1.0), -euler, 1e-12);               /* Gamma(1) = 1 */
  CHECK_CLOSE(__parad_autodiff((void *)tg, 2.0), 1 - euler, 1e-12);            /* psi(2) = 1 - gamma */
  CHECK_CLOSE(__parad_autodiff((void *)lg, 30.0), 3.3844381326855251, 1e-12); /* psi(30) = H_29 - gamma */
  CHECK_CLOSE(__parad_autodiff((void *)lgf, 1.0f), -euler, 1e-5);
  CHECK_CLOSE(__parad_fwddiff((void *)tgf, 2.0f, 1.0f), 1 - euler, 1e-5);
  /* central differences, both sides of the shift (10) and the reflection (1/2) */
  double xs[] = {0.07, 0.3, 0.9, 2.5, 9.7, 10.4, 47.0, -0.3, -1.7, -2.45};
  for (int i = 0; i < 10; i++) {
    double x = xs[i];
    CHECK_CLOSE(__parad_autodiff((void *)lg, x), fd_central(lg_ctx, NULL, x, 1e-6), 1e-7);
    CHECK_CLOSE(__parad_fwddiff((void *)lg, x, 1.0), __parad_autodiff((void *)lg, x), 1e-13);
    if (x < 20) CHECK_CLOSE(__parad_autodiff((void *)tg, x), fd_central(tg_ctx, NULL, x, 1e-6), 1e-7);
  }
  /* Bessel functions, fdim, logb */
  double bs[] = {0.4, 1.3, 2.9, 7.5};
  for (int i = 0; i < 4; i++) {
    double x = bs[i];
    CHECK_CLOSE(__parad_autodiff((void *)bj0, x), -j1(x), 1e-13);
    CHECK_CLOSE(__parad_autodiff((void *)bj1, x), j0(x) - j1(x) / x, 1e-13);
    CHECK_CLOSE(__parad_fwddiff((void *)by0, x, 1.0), -y1(x), 1e-13);
    CHECK_CLOSE(__parad_autodiff((void *)by1, x), y0(x) - y1(x) / x, 1e-13);
    CHECK_CLOSE(__parad_autodiff((void *)bj1, x), fd_central(bj1_ctx, NULL, x, 1e-6), 1e-7);
    CHECK_CLOSE(__parad_autodiff((void *)by1, x), fd_central(by1_ctx, NULL, x, 1e-6), 1e-7);
    CHECK_CLOSE(__parad_autodiff((void *)dim, x), fd_central(dim_ctx, NULL, x, 1e-6), 1e-7);
  }
  CHECK_CLOSE(__parad_autodiff((void *)bj1, 0.0), 0.5, 1e-13);
  /* a likelihood over parameters, both modes and two directions at once */
  double p[2] = {2.3, 1.4};
  CHECK_GRADIENT(loglik, p, 2, 1e-12, 1e-6, 1e-7);
  double dirs[2][2] = {{1, 0}, {0, 1}}, g[2] = {0};
  __parad_autodiff((void *)loglik, p, g);
  D2 both = __parad_fwddiff_v2((void *)loglik, parad_width, 2, p, dirs[0], dirs[1]);
  CHECK_CLOSE(both.d[0], g[0], 1e-12);
  CHECK_CLOSE(both.d[1], g[1], 1e-12);
  return check_done();
}
