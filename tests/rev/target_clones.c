// A function with versions the program picks when it starts (target_clones: an AVX2 body and a default
// one behind an ifunc), named by a request and called from a function a request names
// (ad/function_versions.h): the derivatives are the default body's. The request was refused ("the first
// argument must be a function named in this file"), and the call stopped the program at run time (taken
// for a call through a pointer to code Parad had no derivative of). Gradients and tangents against the
// analytic ones (1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((target_clones("avx2", "default"))) double norm2(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

__attribute__((noinline)) static double scaled(const double *x, int n) { return 3 * norm2(x, n) + x[0]; }

int main(void) {
  enum { N = 5 };
  double x[N], g[N] = {0}, h[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.3 * i;
  __parad_autodiff((void *)norm2, x, g, parad_const, N);
  __parad_autodiff((void *)scaled, x, h, parad_const, N);
  for (int i = 0; i < N; i++) {
    double e[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(g[i], 2 * x[i], 1e-12);
    CHECK_CLOSE(h[i], 6 * x[i] + (i == 0), 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)norm2, x, e, parad_const, N), 2 * x[i], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)scaled, x, e, parad_const, N), 6 * x[i] + (i == 0), 1e-12);
  }
  return check_done();
}
