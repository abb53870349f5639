// Pointer arithmetic: walking arrays with incremented pointers, a 2-D array through row pointers
// computed on the fly, and a pointer chosen by a condition. Analytic tangents (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include "check.h"

double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double walk(const double *p, const double *end) {
  double s = 0;
  while (p != end) {
    s += *p * *p;
    p += 2; /* every other element */
  }
  return s;
}

__attribute__((noinline)) static double diag(double *m, int n) {
  double s = 0;
  for (double *row = m; row < m + n * n; row += n) {
    double *e = row + (row - m) / n;
    s += *e * 3;
  }
  return s;
}

__attribute__((noinline)) static double pick(double *a, double *b, int which) {
  double *p = which ? a : b;
  return p[0] * p[1];
}

int main(void) {
  double x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, dx[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  CHECK_CLOSE(__parad_fwddiff((void *)walk, x, dx, x + 8, dx + 8), 2.0 * (1 + 3 + 5 + 7), 1e-12);
  double m[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, dm[9] = {0};
  dm[4] = 1, dm[5] = 1;
  CHECK_CLOSE(__parad_fwddiff((void *)diag, m, dm, parad_const, 3), 3.0, 1e-12);
  double a[2] = {2, 3}, da[2] = {1, 0}, b[2] = {5, 7}, db[2] = {0, 1};
  CHECK_CLOSE(__parad_fwddiff((void *)pick, a, da, b, db, 1), 3.0, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)pick, a, da, b, db, 0), 5.0, 1e-12);
  return check_done();
}
