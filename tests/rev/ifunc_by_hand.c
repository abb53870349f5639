// A function whose body a hand-written resolver picks when the program starts (GNU ifunc, as libraries
// choose a vectorised body by the processor), called from the functions requests name: the derivative
// follows the body the program runs (the call goes through what the resolver returns). It stopped the
// program at run time, taken for a call through a pointer to code with no derivative. The two bodies
// compute different functions here so that the test sees which one was differentiated (the resolver picks
// the SSE2 one on every x86-64): gradients and tangents against the analytic ones (1e-12) and central
// finite differences of the program's own function (h = 1e-6, 1e-7), at -O2 and -O0; a request naming the
// ifunc itself is refused in tests/diag/ifunc_request.c.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>

#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double norm2_sse2(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}
static double norm2_plain(const double *x, int n) { return 3 * x[0]; } /* never picked */

static double (*pick_norm2(void))(const double *, int) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("sse2")) return norm2_sse2;
  return norm2_plain;
}
double norm2(const double *x, int n) __attribute__((ifunc("pick_norm2")));

__attribute__((noinline)) static double energy(const double *x, int n) { return sin(norm2(x, n)) + x[1] * norm2(x, n); }

int main(void) {
  enum { N = 4 };
  double x[N], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.15 * i;
  double s = norm2(x, N);
  __parad_autodiff((void *)energy, x, g, parad_const, N);
  for (int i = 0; i < N; i++) {
    double e[N] = {0}, want = (cos(s) + x[1]) * 2 * x[i] + (i == 1) * s, h = 1e-6, keep = x[i];
    e[i] = 1;
    CHECK_CLOSE(g[i], want, 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)energy, x, e, parad_const, N), want, 1e-12);
    x[i] = keep + h;
    double hi = energy(x, N);
    x[i] = keep - h;
    double lo = energy(x, N);
    x[i] = keep;
    CHECK_CLOSE(g[i], (hi - lo) / (2 * h), 1e-7);
  }
  return check_done();
}
