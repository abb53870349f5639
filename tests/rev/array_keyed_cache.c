// Memo caches keyed on an array, as kinematics and likelihood code keep them: the last joint vector
// compared element by element (`q[0] == key[0] && ...`) and copied in with a loop (a memcpy at -O2), and
// a parameter vector compared with memcmp and copied in with memcpy, the cached result returned on a hit.
// The program evaluates at a point first (an optimiser's step, an MCMC step), then asks for the
// derivative there: the derivative hit the cache and returned the cached value, whose shadow is zero, so
// both modes gave 0, silently. A cache keyed on one float had its key made NaN at each derivative's
// entry; an array's elements, compared so and copied in so, are such keys now (ad/cache_keys.c), and the
// derivative recomputes what the cache holds.
//   fk: f(q) = |tip(q) - target|^2 of a planar 3-link arm; chol: f(u) = a Gaussian log-likelihood with the
//   factor L(u) = (e^u0, u1, e^u2) cached
// Gradient against central differences (h = 1e-6, tolerance 1e-6) and the tangent (1e-12), with the
// primal run at the same point first, then at a new point. At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double key_q[3] = {NAN, NAN, NAN}, cached_tip[2];

static void tip(const double *q, double *p) {
  if (q[0] == key_q[0] && q[1] == key_q[1] && q[2] == key_q[2]) {
    p[0] = cached_tip[0], p[1] = cached_tip[1];
    return;
  }
  double th = 0, x = 0, y = 0, len[3] = {0.5, 0.4, 0.3};
  for (int i = 0; i < 3; i++) th += q[i], x += len[i] * cos(th), y += len[i] * sin(th);
  p[0] = x, p[1] = y;
  for (int i = 0; i < 3; i++) key_q[i] = q[i];
  cached_tip[0] = x, cached_tip[1] = y;
}

static double fk(const double *q) {
  double p[2];
  tip(q, p);
  return (p[0] - 0.6) * (p[0] - 0.6) + (p[1] - 0.5) * (p[1] - 0.5);
}

static double key_u[3] = {NAN, NAN, NAN}, factor[3];
static double xs[40][2];

static const double *cholesky(const double *u) {
  if (memcmp(u, key_u, sizeof key_u) != 0) {
    memcpy(key_u, u, sizeof key_u);
    factor[0] = exp(u[0]), factor[1] = u[1], factor[2] = exp(u[2]);
  }
  return factor;
}

static double chol(const double *u) {
  const double *l = cholesky(u);
  double lp = 0;
  for (int i = 0; i < 40; i++) {
    double v0 = xs[i][0] / l[0], v1 = (xs[i][1] - l[1] * v0) / l[2];
    lp += -0.5 * (v0 * v0 + v1 * v1) - log(l[0]) - log(l[2]);
  }
  return lp;
}

static void check(array_fn f, double *x) {
  double v[3] = {1, -0.5, 0.25};
  for (int point = 0; point < 2; point++, x[0] += 0.1) {
    double g[3] = {0, 0, 0}, fd[3];
    for (int j = 0; j < 3; j++) fd[j] = fd_component(f, x, 3, j, 1e-6);
    f(x); /* the cache filled at x */
    __parad_autodiff((void *)f, x, g);
    f(x);
    double d = __parad_fwddiff((void *)f, x, v);
    CHECK_CLOSE(d, g[0] * v[0] + g[1] * v[1] + g[2] * v[2], 1e-12);
    for (int j = 0; j < 3; j++) CHECK_CLOSE(g[j], fd[j], 1e-6);
  }
}

int main(void) {
  for (int i = 0; i < 40; i++) xs[i][0] = sin(i), xs[i][1] = 0.5 * sin(i) + cos(2.1 * i);
  double q[3] = {0.3, 0.5, -0.2}, u[3] = {0.1, 0.4, -0.2};
  check(fk, q);
  check(chol, u);
  return check_done();
}
