// Recursion in reverse mode: one augmented and one reverse function per function and pattern, calling
// themselves; each call's records come back off the tape in order. A recursive power (analytic,
// tolerance 1e-12) and a mutual recursion through sin (forward tangents, tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double power(double x, int n) {
  if (n == 0) return 1;
  if (n % 2 == 0) {
    double h = power(x, n / 2);
    return h * h;
  }
  return x * power(x, n - 1);
}

static double odd(double x, int n);
__attribute__((noinline)) static double even(double x, int n) { return n == 0 ? 1 : x * odd(sin(x), n - 1); }
__attribute__((noinline)) static double odd(double x, int n) { return n == 0 ? x : x + even(x * x, n - 1); }

int main(void) {
  for (int n = 0; n < 12; n++) CHECK_CLOSE(__parad_autodiff((void *)power, 1.1, n), n ? n * pow(1.1, n - 1) : 0.0, 1e-12);
  for (int n = 0; n < 8; n++)
    CHECK_CLOSE(__parad_autodiff((void *)even, 0.7, n), __parad_fwddiff((void *)even, 0.7, 1.0, n), 1e-12);
  return check_done();
}
