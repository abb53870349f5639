// A constant array and an active array passed on to a helper at -O0, in reverse mode: the helper's
// gradient with respect to its active argument only. Analytic gradient (tolerance 1e-12, rounding only)
// and forward tangents along every unit direction (tolerance 1e-12).
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 5 };

__attribute__((noinline)) static double dot(const double *p, const double *q, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i] * sin(q[i]);
  return s;
}

static double f(const double *a, const double *b, int n) { return dot(a, b, n) * dot(a, b, n); }

int main(void) {
  double a[N], b[N], db[N] = {0}, e[N];
  for (int i = 0; i < N; i++) a[i] = 0.5 + 0.1 * i, b[i] = 0.3 * i - 0.2;
  __parad_autodiff((void *)f, parad_const, a, b, db, parad_const, N);
  double d = dot(a, b, N);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(db[k], 2 * d * a[k] * cos(b[k]), 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(db[k], __parad_fwddiff((void *)f, parad_const, a, b, e, parad_const, N), 1e-12);
  }
  return check_done();
}
