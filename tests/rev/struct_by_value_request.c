// A request whose function takes a struct by value, passed in memory (over 16 bytes): refused before ("pass a
// pointer to it instead"). Marked constant, it is passed on by value to the function from a wrapper that
// takes it by reference (ad/request.c); in forward mode it may take a tangent struct after it too.
//   f(p, x) = sum_i p.w[i mod 3] sin(p.a x_i) + p.b x_i^2 over p.n components (p: {a, b, n, w[3]}, 48 bytes)
//   g(p, s) = p.a s^2 + p.b p.w[1] s, its tangent along (dp, ds) by hand
// The gradient of f in x (reverse mode, p constant) against df/dx_i = p.w[i mod 3] p.a cos(p.a x_i) +
// 2 p.b x_i (1e-12) and central differences (h 1e-6, 1e-7); split mode the same; g's derivative in s alone
// (reverse, an active scalar returned) and g's tangents along (dp, ds), one and two directions at a time,
// against their formulas (1e-12). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void *__parad_augmentfwd(void *, ...);
void __parad_reverse(void *, ...);
typedef struct {
  double d[2];
} Two;
Two __parad_fwddiff_w2(void *, ...);

typedef struct {
  double a, b;
  int n;
  double w[3];
} Params;

enum { N = 5 };

static double f(Params p, const double *x) {
  double s = 0;
  for (int i = 0; i < p.n; i++) s += p.w[i % 3] * sin(p.a * x[i]) + p.b * x[i] * x[i];
  return s;
}

static double g(Params p, double s) { return p.a * s * s + p.b * p.w[1] * s; }

int main(void) {
  Params p = {1.3, 0.2, N, {1, -2, 0.5}}, dp = {0.25, -0.5, 0, {0.1, 0.3, -0.2}}, dq = {-1, 0.5, 0, {1, 2, 3}};
  double x[N] = {0.3, -0.7, 1.3, 0.45, -1.1}, dx[N] = {0}, sx[N] = {0};
  __parad_autodiff((void *)f, parad_const, p, x, dx);
  void *tape = __parad_augmentfwd((void *)f, parad_const, p, x, sx);
  __parad_reverse((void *)f, parad_const, p, x, sx, 1.0, tape);
  for (int i = 0; i < N; i++) {
    double want = p.w[i % 3] * p.a * cos(p.a * x[i]) + 2 * p.b * x[i];
    double xp[N], xm[N];
    for (int k = 0; k < N; k++) xp[k] = xm[k] = x[k];
    xp[i] += 1e-6, xm[i] -= 1e-6;
    CHECK_CLOSE(dx[i], want, 1e-12);
    CHECK_CLOSE(sx[i], want, 1e-12);
    CHECK_CLOSE(dx[i], (f(p, xp) - f(p, xm)) / 2e-6, 1e-7);
  }
  double s = 0.8;
  CHECK_CLOSE(__parad_autodiff((void *)g, parad_const, p, s), 2 * p.a * s + p.b * p.w[1], 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)g, parad_const, p, s, 1.0), 2 * p.a * s + p.b * p.w[1], 1e-12);
  /* along (dp, ds): dg = dp.a s^2 + (dp.b w1 + b dp.w1) s + (2 a s + b w1) ds */
  double along_p = dp.a * s * s + (dp.b * p.w[1] + p.b * dp.w[1]) * s + (2 * p.a * s + p.b * p.w[1]) * 0.5;
  double along_q = dq.a * s * s + (dq.b * p.w[1] + p.b * dq.w[1]) * s + (2 * p.a * s + p.b * p.w[1]) * -1.5;
  CHECK_CLOSE(__parad_fwddiff((void *)g, p, dp, s, 0.5), along_p, 1e-12);
  Two t = __parad_fwddiff_w2((void *)g, parad_width, 2, p, dp, dq, s, 0.5, -1.5);
  CHECK_CLOSE(t.d[0], along_p, 1e-12);
  CHECK_CLOSE(t.d[1], along_q, 1e-12);
  return check_done();
}
