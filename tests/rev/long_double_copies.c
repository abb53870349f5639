// long double data copied whole: a memcpy between local arrays of long double, and an array of
// struct { long double v; } reversed by assignment (a 16-byte copy each). Both were refused as copies of
// "mixed data" (x86's long double has 6 bytes of padding and is neither float nor double); their adjoints
// move now as long doubles (__parad_rt_copy_adjoint_f80). f = sum_i (i+1) b_i + sum_i (i+1) c_i with
// b = copy of x^2, c = the reversed copy of x^3: gradients and tangents along unit directions against the
// analytic ones (1e-12), at -O2 (%cflags) and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <string.h>

#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 4 };

typedef struct {
  long double v;
} item;

static double f(const double *x, int n) {
  long double a[N], b[N];
  item p[N], q[N];
  for (int i = 0; i < n; i++) a[i] = (long double)x[i] * x[i], p[i].v = (long double)x[i] * x[i] * x[i];
  memcpy(b, a, n * sizeof(long double));
  for (int i = 0; i < n; i++) q[i] = p[n - 1 - i];
  long double s = 0;
  for (int i = 0; i < n; i++) s += b[i] * (i + 1) + q[i].v * (i + 1);
  return (double)s;
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.5}, g[N] = {0};
  __parad_autodiff((void *)f, x, g, parad_const, N);
  for (int i = 0; i < N; i++) {
    double want = 2 * x[i] * (i + 1) + 3 * x[i] * x[i] * (N - i), e[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(g[i], want, 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, e, parad_const, N), want, 1e-12);
  }
  return check_done();
}
