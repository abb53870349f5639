// Pointer arithmetic in reverse mode: walking an array with an incremented pointer up to an end pointer
// (every other element), the diagonal of a matrix through row pointers computed on the fly, and a
// pointer chosen by a condition; the adjoints must land at the addresses the pointers reached. Analytic
// gradients (tolerance 1e-12, rounding only) and the forward tangent along every unit direction
// (tolerance 1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
double __parad_autodiff_d(void *, ...);

__attribute__((noinline)) static double walk(const double *p, const double *end) {
  double s = 0;
  const double *q = p;
  while (q < end) {
    s += *q * *q * q[1]; /* reads the odd neighbour too */
    q += 2;
  }
  return s;
}

__attribute__((noinline)) static double diag(double *m, int n) {
  double s = 0;
  for (double *row = m; row < m + n * n; row += n) {
    double *e = row + (row - m) / n;
    s += sin(*e) * e[-((row - m) / n > 0)]; /* the diagonal element times its left neighbour (or itself) */
  }
  return s;
}

__attribute__((noinline)) static double pick(double *a, double *b, double t) {
  double *p = t > 0 ? a : b;
  double *r = p + 1;
  return p[0] * r[0] * t + *r;
}

enum { L = 8, D = 4 };

int main(void) {
  double x[L], dx[L] = {0}, e[L];
  for (int i = 0; i < L; i++) x[i] = 0.3 * i - 0.8;
  __parad_autodiff((void *)walk, x, dx, x + L, dx + L);
  for (int k = 0; k < L; k++) {
    double want = k % 2 == 0 ? 2 * x[k] * x[k + 1] : x[k - 1] * x[k - 1];
    CHECK_CLOSE(dx[k], want, 1e-12);
    for (int i = 0; i < L; i++) e[i] = i == k;
    CHECK_CLOSE(dx[k], __parad_fwddiff((void *)walk, x, e, x + L, e + L), 1e-12);
  }

  double m[D * D], dm[D * D] = {0}, em[D * D];
  for (int i = 0; i < D * D; i++) m[i] = cos(0.9 * i);
  __parad_autodiff((void *)diag, m, dm, parad_const, D);
  for (int k = 0; k < D * D; k++) {
    double want = 0;
    for (int i = 0; i < D; i++) {
      int d = i * D + i, l = i > 0 ? d - 1 : d;
      if (d == k) want += cos(m[d]) * m[l];
      if (l == k) want += sin(m[d]);
    }
    CHECK_CLOSE(dm[k], want, 1e-12);
    for (int i = 0; i < D * D; i++) em[i] = i == k;
    CHECK_CLOSE(dm[k], __parad_fwddiff((void *)diag, m, em, parad_const, D), 1e-12);
  }

  double ts[2] = {0.7, -1.3};
  for (int c = 0; c < 2; c++) {
    double a[2] = {2, 3}, b[2] = {5, 7}, da[2] = {0}, db[2] = {0}, t = ts[c];
    double dt = __parad_autodiff_d((void *)pick, a, da, b, db, t);
    double *p = t > 0 ? a : b, *dp = t > 0 ? da : db, *o = t > 0 ? db : da;
    CHECK_CLOSE(dp[0], p[1] * t, 1e-12);
    CHECK_CLOSE(dp[1], p[0] * t + 1, 1e-12);
    CHECK_CLOSE(o[0] + o[1], 0.0, 0);
    CHECK_CLOSE(dt, p[0] * p[1], 1e-12);
    double z[2] = {0, 0}, u0[2] = {1, 0}, u1[2] = {0, 1};
    CHECK_CLOSE(da[0], __parad_fwddiff((void *)pick, a, u0, b, z, t, 0.0), 1e-12);
    CHECK_CLOSE(da[1], __parad_fwddiff((void *)pick, a, u1, b, z, t, 0.0), 1e-12);
    CHECK_CLOSE(db[0], __parad_fwddiff((void *)pick, a, z, b, u0, t, 0.0), 1e-12);
    CHECK_CLOSE(db[1], __parad_fwddiff((void *)pick, a, z, b, u1, t, 0.0), 1e-12);
    CHECK_CLOSE(dt, __parad_fwddiff((void *)pick, a, z, b, z, t, 1.0), 1e-12);
  }
  return check_done();
}
