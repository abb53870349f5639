// Data-dependent branches, a switch, and a select: the tangent follows the path the primal took.
// Analytic derivatives per branch (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double piecewise(double x) {
  if (x < -1) return -x * x;          /* -2x */
  else if (x < 1) return sin(x);      /* cos x */
  return exp(x - 1) + x;              /* exp(x-1) + 1 */
}

__attribute__((noinline)) static double by_case(double x, int k) {
  switch (k) {
  case 0: return x * x;               /* 2x */
  case 1: return x * x * x;           /* 3x^2 */
  case 2: return 1 / x;               /* -1/x^2 */
  case 7: return log(x);              /* 1/x */
  default: return 2 * x;              /* 2 */
  }
}

__attribute__((noinline)) static double clamp_sq(double x, double lo, double hi) {
  double y = x < lo ? lo : x > hi ? hi : x;   /* selects */
  return y * y;
}

int main(void) {
  double xs[] = {-2.5, -0.3, 0.4, 1.5, 3.0};
  for (int i = 0; i < 5; i++) {
    double x = xs[i];
    double want = x < -1 ? -2 * x : x < 1 ? cos(x) : exp(x - 1) + 1;
    CHECK_CLOSE(__parad_fwddiff((void *)piecewise, x, 1.0), want, 1e-12);
  }
  double x = 1.7;
  double wants[] = {2 * x, 3 * x * x, -1 / (x * x), 2, 2, 2, 2, 1 / x};
  for (int k = 0; k < 8; k++) CHECK_CLOSE(__parad_fwddiff((void *)by_case, x, 1.0, k), wants[k], 1e-12);
  /* the clamped value's tangent comes from whichever operand the select took */
  CHECK_CLOSE(__parad_fwddiff((void *)clamp_sq, 0.5, 1.0, 0.0, 0.0, 1.0, 0.0), 1.0, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)clamp_sq, -3.0, 1.0, -1.0, 0.0, 1.0, 0.0), 0.0, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)clamp_sq, -3.0, 0.0, -1.0, 1.0, 1.0, 0.0), -2.0, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)clamp_sq, 3.0, 0.0, -1.0, 0.0, 1.5, 1.0), 3.0, 1e-12);
  return check_done();
}
