// Pointers returned by helpers, in reverse mode: a helper returns one of its array arguments offset by k
// (the caller reads and writes through it, so the shadow pointer must be offset the same way), and a
// helper returns the row of a matrix with the largest norm (chosen by comparing active values) or the
// second argument, depending on the data. Analytic gradients (tolerance 1e-12, rounding only) and
// forward tangents along every unit direction (tolerance 1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double *offset(double *a, int k) { return a + k; }

__attribute__((noinline)) static double *widest_row(double *m, int rows, int cols, double *fallback, double limit) {
  double best = -1;
  int at = 0;
  for (int r = 0; r < rows; r++) {
    double s = 0;
    for (int c = 0; c < cols; c++) s += m[r * cols + c] * m[r * cols + c];
    if (s > best) best = s, at = r;
  }
  return best > limit ? m + at * cols : fallback;
}

__attribute__((noinline)) static double use(double *x, double *m, double *fb, int n, double limit) {
  double *p = offset(x, 2);
  p[0] = p[0] * p[1];           /* writes x[2] through the returned pointer */
  double s = p[-1] * sin(p[0]);  /* reads x[1] and the new x[2] */
  double *row = widest_row(m, 3, n, fb, limit);
  for (int c = 0; c < n; c++) s += row[c] * p[c % 2];
  return s;
}

enum { N = 4 };

int main(void) {
  const double x0[N] = {0.3, -0.8, 1.2, 0.5}, m0[3 * N] = {1, 0.5, -0.2, 0.3, 2, -1, 0.4, 0.1, 0.2, 0.2, 0.7, -0.6};
  const double fb0[N] = {0.9, -0.4, 0.6, 1.1};
  const double limits[2] = {1.0, 100.0}; /* the widest row, or the fallback */
  for (int l = 0; l < 2; l++) {
    double x[N], m[3 * N], fb[N], dx[N] = {0}, dm[3 * N] = {0}, dfb[N] = {0};
    for (int i = 0; i < N; i++) x[i] = x0[i], fb[i] = fb0[i];
    for (int i = 0; i < 3 * N; i++) m[i] = m0[i];
    __parad_autodiff((void *)use, x, dx, m, dm, fb, dfb, parad_const, N, parad_const, limits[l]);
    /* by hand: y = x2 x3; s = x1 sin y + sum_c row_c * (c even ? y : x3) */
    double y = x0[2] * x0[3], se = 0, so = 0;
    const double *row = l == 0 ? m0 + 1 * N : fb0; /* row 1 is the widest */
    for (int c = 0; c < N; c++) *(c % 2 ? &so : &se) += row[c];
    double dy = x0[1] * cos(y) + se;
    CHECK_CLOSE(dx[0], 0.0, 0);
    CHECK_CLOSE(dx[1], sin(y), 1e-12);
    CHECK_CLOSE(dx[2], dy * x0[3], 1e-12);
    CHECK_CLOSE(dx[3], dy * x0[2] + so, 1e-12);
    double *drow = l == 0 ? dm + N : dfb;
    for (int c = 0; c < N; c++) CHECK_CLOSE(drow[c], c % 2 ? x0[3] : y, 1e-12);
    /* forward tangents, unit directions of (x, m, fb) */
    for (int k = 0; k < 5 * N; k++) {
      double x2[N], m2[3 * N], f2[N], ex[N] = {0}, em[3 * N] = {0}, ef[N] = {0};
      for (int i = 0; i < N; i++) x2[i] = x0[i], f2[i] = fb0[i];
      for (int i = 0; i < 3 * N; i++) m2[i] = m0[i];
      if (k < N) ex[k] = 1;
      else if (k < 4 * N) em[k - N] = 1;
      else ef[k - 4 * N] = 1;
      double got = k < N ? dx[k] : k < 4 * N ? dm[k - N] : dfb[k - 4 * N];
      CHECK_CLOSE(got, __parad_fwddiff((void *)use, x2, ex, m2, em, f2, ef, parad_const, N, parad_const, limits[l]), 1e-12);
    }
  }
  return check_done();
}
