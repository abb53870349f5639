// Helpers declared with another calling convention (regcall, ms_abi) called in a differentiated loop. The
// copies Parad makes of functions (for a loop's checkpoints, for bodies without unwind paths) took the
// default convention while their calls kept the original's: at -O0 with -finstrument-functions the
// gradient crashed (a corrupt stack). f = sum_i h(x_i, x_{i+1}) with h(a, b) = sin(a) b, and g by ms_abi:
// gradient and tangents against the analytic derivative (1e-14), at -O0 with and without
// -finstrument-functions and at -O2.
// RUN: %parad-cc -O0 -finstrument-functions -I%S/../include %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags %s -o %t2 -lm && %t2
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((regcall, noinline)) double h(double a, double b) { return sin(a) * b; }
__attribute__((ms_abi, noinline)) double g(double a) { return a * a; }

enum { N = 4 };

double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += h(x[i], x[i + 1]) + g(x[i]);
  return s;
}

int main(void) {
  double x[N] = {0.3, 0.7, -0.2, 1.1}, d[N] = {0}, want[N] = {0};
  __parad_autodiff((void *)f, x, d, parad_const, N);
  for (int i = 0; i + 1 < N; i++) {
    want[i] += cos(x[i]) * x[i + 1] + 2 * x[i];
    want[i + 1] += sin(x[i]);
  }
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(d[i], want[i], 1e-14);
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, parad_const, N), want[i], 1e-14);
  }
  return check_done();
}
