#include <math.h>
#include <stdio.h>
double __parad_fwddiff(void *, ...);
static double f(double x) { return x * sin(x); }
int main(void) {
  double x = 0.6, d = __parad_fwddiff((void *)f, x, 1.0), want = sin(x) + x * cos(x);
  int ok = fabs(d - want) < 1e-12;
  printf("%s: %g vs %g\n", ok ? "ok" : "FAIL", d, want);
  return !ok;
}
