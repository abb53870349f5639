// GNU C library calls programs use beside the standard ones: sincos and sincosf (ad/library_expansions.h:
// a sine and a cosine stored through the pointers), lgamma_r and lgammaf_r (lgamma's rule; the sign
// written through the pointer is flat), and reallocarray growing a workspace inside the derivative (realloc
// after the library's overflow test). Each was refused ("which no file of the program ... defines").
// Gradients (reverse) and tangents (forward) against the analytic ones (1e-12; floats 1e-5), -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

/* sin(2x) cos(y) + sinf(x)^2 */
static double rotation(double x, double y) {
  double s, c, s2, c2;
  float sf, cf;
  sincos(2 * x, &s, &c);
  sincos(y, &s2, &c2);
  sincosf((float)x, &sf, &cf);
  return s * c2 + (double)sf * sf;
}

/* lgamma(x) * sign + lgammaf(y) */
static double log_gamma(double x, double y) {
  int sign, signf;
  double l = lgamma_r(x, &sign);
  float lf = lgammaf_r((float)y, &signf);
  return l * sign + lf * signf;
}

/* sum_i w_i^2 with w grown one element at a time by reallocarray */
static double grown(const double *x, int n) {
  double *w = NULL, s = 0;
  for (int i = 0; i < n; i++) {
    w = reallocarray(w, i + 1, sizeof *w);
    w[i] = x[i] * (i + 1);
  }
  for (int i = 0; i < n; i++) s += w[i] * w[i];
  free(w);
  return s;
}

typedef struct {
  double dx, dy;
} Grad2;
Grad2 __parad_autodiff_2(void *, ...);

static double digamma(double x) { /* central difference of lgamma, h 1e-5: to 1e-9 */
  return (lgamma(x + 1e-5) - lgamma(x - 1e-5)) / 2e-5;
}

int main(void) {
  double x = 0.7, y = 1.3;
  Grad2 g = __parad_autodiff_2((void *)rotation, x, y);
  double want_x = 2 * cos(2 * x) * cos(y) + 2 * sin(x) * cos(x), want_y = -sin(2 * x) * sin(y);
  CHECK_CLOSE(g.dx, want_x, 1e-6); /* sinf: single precision */
  CHECK_CLOSE(g.dy, want_y, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)rotation, x, 1.0, y, 0.0), want_x, 1e-6);
  CHECK_CLOSE(__parad_fwddiff((void *)rotation, x, 0.0, y, 1.0), want_y, 1e-12);

  double a = 2.5, b = 3.5;
  Grad2 l = __parad_autodiff_2((void *)log_gamma, a, b);
  CHECK_CLOSE(l.dx, digamma(a), 1e-8);
  CHECK_CLOSE(l.dy, digamma(b), 1e-5);
  CHECK_CLOSE(__parad_fwddiff((void *)log_gamma, a, 1.0, b, 0.0), digamma(a), 1e-8);

  enum { N = 5 };
  double v[N], dv[N] = {0};
  for (int i = 0; i < N; i++) v[i] = 0.2 * i - 0.3;
  __parad_autodiff((void *)grown, v, dv, parad_const, N);
  for (int i = 0; i < N; i++) {
    double e[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(dv[i], 2 * (i + 1) * (i + 1) * v[i], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)grown, v, e, parad_const, N), 2 * (i + 1) * (i + 1) * v[i], 1e-12);
  }
  return check_done();
}
