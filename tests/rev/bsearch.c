// bsearch into an array with derivatives: a piecewise-linear table lookup. At -O1 and up glibc's headers
// write the search inline; at -O0 it was a call of the library's bsearch, refused ("the pointer bsearch
// returns into it would have no shadow"). Parad now writes the call out as the same search, so both
// build. The table t_i = x_i^2 + i (increasing for the x below), the value at q interpolated between the
// bracketing entries, and a key found in no bracket (NULL: the last entry instead):
//   f = (1 - w) t_k + w t_{k+1} + t_k t_{k+1},  w = (q - t_k) / (t_{k+1} - t_k)
// Gradient against central finite differences (h = 1e-6, 1e-6) and forward tangents along each unit
// direction against it (1e-10), at -O0 and -O2.
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags %s -o %t -lm && %t
#include <stdlib.h>
#include "parad.h"
#include "check.h"

enum { N = 6 };

static int bracket(const void *key, const void *elem) {
  double k = *(const double *)key;
  const double *e = elem;
  return k < e[0] ? -1 : k >= e[1] ? 1 : 0;
}

static double lookup(const double *x, double q) {
  double t[N];
  for (int i = 0; i < N; i++) t[i] = x[i] * x[i] + i;
  const double *lo = bsearch(&q, t, N - 1, sizeof(double), bracket);
  if (!lo) return t[N - 1] * t[N - 1];
  double w = (q - lo[0]) / (lo[1] - lo[0]);
  return (1 - w) * lo[0] + w * lo[1] + lo[0] * lo[1];
}

static double at_q(const double *x) { return lookup(x, 3.3); }
static double outside(const double *x) { return lookup(x, 100.0); }

static void check(double (*f)(const double *), double (*g)(const double *, double *), double (*t)(const double *, const double *)) {
  double x[N] = {0.3, -0.5, 0.7, 0.2, -0.9, 0.4}, dx[N] = {0};
  g(x, dx);
  for (int i = 0; i < N; i++) {
    double p[N], m[N], v[N] = {0}, h = 1e-6;
    for (int j = 0; j < N; j++) p[j] = m[j] = x[j];
    p[i] += h, m[i] -= h, v[i] = 1;
    CHECK_CLOSE((f(p) - f(m)) / (2 * h), dx[i], 1e-6);
    CHECK_CLOSE(t(x, v), dx[i], 1e-10);
  }
}

static double g_at_q(const double *x, double *dx) { return __parad_autodiff((void *)at_q, x, dx); }
static double t_at_q(const double *x, const double *v) { return __parad_fwddiff((void *)at_q, x, v); }
static double g_outside(const double *x, double *dx) { return __parad_autodiff((void *)outside, x, dx); }
static double t_outside(const double *x, const double *v) { return __parad_fwddiff((void *)outside, x, v); }

int main(void) {
  check(at_q, g_at_q, t_at_q);
  check(outside, g_outside, t_outside);
  return check_done();
}
