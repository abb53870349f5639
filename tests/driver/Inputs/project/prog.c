#include <math.h>
#include <stdio.h>
double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);
double potential(double x); /* in the static library */
static double f(double x) { return potential(x) + x; }
int main(void) {
  double x = 0.6, want = sin(x) + x * cos(x) + 1;
  double d = __parad_fwddiff((void *)f, x, 1.0), g = __parad_autodiff((void *)f, x);
  int ok = fabs(d - want) < 1e-12 && fabs(g - want) < 1e-12;
  printf("%s: %g %g vs %g\n", ok ? "ok" : "FAIL", d, g, want);
  return !ok;
}
