/* A derivative with a known value: d/dx (x^2 sin x) at x = 0.7, against the analytic one (1e-12). */
#include <math.h>
#include <stdio.h>

double __parad_autodiff(void *, ...);

static double f(double x) { return x * x * sin(x); }

int main(void) {
  double x = 0.7, want = 2 * x * sin(x) + x * x * cos(x), got = __parad_autodiff((void *)f, x);
  printf("d/dx x^2 sin x = %.15g (analytic %.15g)\n", got, want);
  return !(fabs(got - want) <= 1e-12 * fabs(want));
}
