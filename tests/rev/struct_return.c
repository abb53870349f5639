// Functions returning a struct have no single seed: the adjoint of each field is chosen by the caller.
// Two ways: split mode with the struct adjoint passed to __parad_reverse (a struct of two floats, which C
// passes as one <2 x float> value), and a wrapper that contracts a struct of doubles (returned in two
// registers) or of three doubles (returned through memory, sret) with a weight vector. Analytic
// derivatives of e^z (tolerance 1e-5 for float, 1e-12 for double: rounding only) and forward tangents
// along each unit direction (same tolerances).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

typedef struct { float re, im; } CF;
typedef struct { double re, im; } Complex;
typedef struct { double x, y, z; } V3;
typedef struct { float dre, dim; } GF2;
typedef struct { double dre, dim; } G2;
typedef struct { double a, b, c; } G3;
void *__parad_augmentfwd(void *, ...);
GF2 __parad_reverse_f2(void *, ...);
G2 __parad_autodiff2(void *, ...);
G3 __parad_autodiff3(void *, ...);
CF __parad_fwddiff_cf(void *, ...);
double __parad_fwddiff(void *, ...);
extern int parad_tape;

__attribute__((noinline)) static CF cexpf_(float re, float im) {
  CF c = {expf(re) * cosf(im), expf(re) * sinf(im)};
  return c;
}

__attribute__((noinline)) static Complex cexp_(double re, double im) {
  Complex c = {exp(re) * cos(im), exp(re) * sin(im)};
  return c;
}

__attribute__((noinline)) static V3 spherical(double r, double th, double ph) {
  V3 v = {r * sin(th) * cos(ph), r * sin(th) * sin(ph), r * cos(th)};
  return v;
}

/* the wrappers: w . f(args) */
static double contract_c(double re, double im, double wre, double wim) {
  Complex c = cexp_(re, im);
  return wre * c.re + wim * c.im;
}
static double contract_v(double r, double th, double ph, const double *w) {
  V3 v = spherical(r, th, ph);
  return w[0] * v.x + w[1] * v.y + w[2] * v.z;
}

int main(void) {
  /* split mode, struct of floats: seed (1, 0) gives the gradient of Re e^z, seed (0, 1) of Im e^z */
  float re = 0.3f, im = 1.2f;
  for (int s = 0; s < 2; s++) {
    void *tape = __parad_augmentfwd((void *)cexpf_, re, im);
    CF seed = {(float)(s == 0), (float)(s == 1)};
    GF2 g = __parad_reverse_f2((void *)cexpf_, re, im, seed, parad_tape, tape);
    double e = exp(re);
    CHECK_CLOSE(g.dre, s == 0 ? e * cos(im) : e * sin(im), 1e-5);
    CHECK_CLOSE(g.dim, s == 0 ? -e * sin(im) : e * cos(im), 1e-5);
    CF t_re = __parad_fwddiff_cf((void *)cexpf_, re, 1.0f, im, 0.0f);
    CF t_im = __parad_fwddiff_cf((void *)cexpf_, re, 0.0f, im, 1.0f);
    CHECK_CLOSE(g.dre, s == 0 ? t_re.re : t_re.im, 1e-5);
    CHECK_CLOSE(g.dim, s == 0 ? t_im.re : t_im.im, 1e-5);
  }
  /* wrapper, struct of two doubles */
  double x = 0.3, y = 1.2;
  for (int s = 0; s < 2; s++) {
    G2 g = __parad_autodiff2((void *)contract_c, x, y, parad_const, (double)(s == 0), parad_const, (double)(s == 1));
    double e = exp(x);
    CHECK_CLOSE(g.dre, s == 0 ? e * cos(y) : e * sin(y), 1e-12);
    CHECK_CLOSE(g.dim, s == 0 ? -e * sin(y) : e * cos(y), 1e-12);
    CHECK_CLOSE(g.dre, __parad_fwddiff((void *)contract_c, x, 1.0, y, 0.0, parad_const, (double)(s == 0), parad_const, (double)(s == 1)), 1e-12);
    CHECK_CLOSE(g.dim, __parad_fwddiff((void *)contract_c, x, 0.0, y, 1.0, parad_const, (double)(s == 0), parad_const, (double)(s == 1)), 1e-12);
  }
  /* wrapper, struct of three doubles returned through memory: one Jacobian row per seed */
  double r = 1.7, th = 0.6, ph = -0.9;
  double jac[3][3] = {{sin(th) * cos(ph), r * cos(th) * cos(ph), -r * sin(th) * sin(ph)},
                      {sin(th) * sin(ph), r * cos(th) * sin(ph), r * sin(th) * cos(ph)},
                      {cos(th), -r * sin(th), 0}};
  for (int row = 0; row < 3; row++) {
    double w[3] = {row == 0, row == 1, row == 2};
    G3 g = __parad_autodiff3((void *)contract_v, r, th, ph, parad_const, w);
    double got[3] = {g.a, g.b, g.c};
    for (int k = 0; k < 3; k++) {
      CHECK_CLOSE(got[k], jac[row][k], 1e-12);
      CHECK_CLOSE(got[k], __parad_fwddiff((void *)contract_v, r, (double)(k == 0), th, (double)(k == 1), ph, (double)(k == 2), parad_const, w), 1e-12);
    }
  }
  return check_done();
}
