// Recursion: one tangent function per function and activity pattern, calling itself. A recursive power
// and a mutually recursive pair, against analytic derivatives (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

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

static double eval_even(void *ctx, double x) { return even(x, *(int *)ctx); }

int main(void) {
  for (int n = 0; n < 12; n++) {
    double x = 1.1;
    CHECK_CLOSE(__parad_fwddiff((void *)power, x, 1.0, n), n ? n * pow(x, n - 1) : 0.0, 1e-12);
  }
  for (int n = 0; n < 6; n++) {
    double x = 0.7;
    CHECK_CLOSE(__parad_fwddiff((void *)even, x, 1.0, n), fd_central(eval_even, &n, x, 1e-5), 1e-7);
  }
  return check_done();
}
