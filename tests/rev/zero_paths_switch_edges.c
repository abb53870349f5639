// A reverse sweep's block entered from a switch whose cases share it: the copy made for the predecessors
// whose adjoints are zero (updates that add zero left out) took one phi entry per predecessor, not per edge,
// and the module was invalid ("PHINode should have one entry for each predecessor", clang stopped: fuzz seed
// 44353 at -O2, shrunk). f below is that program's function, whose result does not depend on x; g the same
// with one that does (h0[2] and h3[0] stay 0.5 on every path the points below take). Gradients and tangents
// against the analytic derivatives (1e-14) at points taking each side of the first test.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

#define BODY(RESULT)                                                                                           \
  double *h0 = calloc(n + 2, sizeof(double)), *h3 = calloc(n + 1, sizeof(double));                             \
  for (int i = 0; i < 3; i++) h0[i] = 0.5;                                                                     \
  for (int i = 0; i < 4 && i < n + 1; i++) h3[i] = 0.5;                                                        \
  double *p0 = x + 1, *p1 = h0;                                                                                \
  if (p0[0] <= 0.5) {                                                                                          \
    switch ((int)(3 + 3 * tanh(0.5 >= h0[4]))) {                                                               \
    case 6: break;                                                                                             \
    case 1:                                                                                                    \
      for (int i = 0; i < n; i++) h3[0] = sin(p1[0]);                                                          \
      break;                                                                                                   \
    default:                                                                                                   \
      switch ((int)(3 + 3 * tanh(0.5))) {                                                                     \
      case 4: h0[2] -= h0[4] / (2.0 + x[0] * x[0]); break;                                                     \
      }                                                                                                        \
      break;                                                                                                   \
    }                                                                                                          \
  }                                                                                                            \
  double result = RESULT;                                                                                      \
  free(h0);                                                                                                    \
  free(h3);                                                                                                    \
  return result;

__attribute__((noinline)) double f(double *restrict x, int n) { BODY(0.5) }
__attribute__((noinline)) double g(double *restrict x, int n) { BODY(0.5 + h0[2] * x[0] + h3[0] * x[2]) }

int main(void) {
  const double at[2][3] = {{-1.121, -0.128, -0.045}, {0.7, 0.9, 1.3}};
  for (int p = 0; p < 2; p++)
    for (int which = 0; which < 2; which++) {
      double x[3], d[3] = {0}, want[3] = {which * 0.5, 0, which * 0.5};
      for (int i = 0; i < 3; i++) x[i] = at[p][i];
      if (which) __parad_autodiff((void *)g, x, d, parad_const, 3);
      else __parad_autodiff((void *)f, x, d, parad_const, 3);
      for (int i = 0; i < 3; i++) {
        CHECK_CLOSE(d[i], want[i], 1e-14);
        double v[3] = {0};
        v[i] = 1;
        for (int j = 0; j < 3; j++) x[j] = at[p][j];
        double t = which ? __parad_fwddiff((void *)g, x, v, parad_const, 3) : __parad_fwddiff((void *)f, x, v, parad_const, 3);
        CHECK_CLOSE(t, want[i], 1e-14);
      }
    }
  return check_done();
}
