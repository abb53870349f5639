// An Enzyme program, unchanged: it defines its own marker globals and declares __enzyme_fwddiff with a
// typed prototype. Analytic derivatives (tolerance 1e-12).
// RUN: %parad-cc -O2 %s -o %t && %t
#include <math.h>
#include <stdio.h>

int enzyme_dup, enzyme_const, enzyme_dupnoneed;
extern double __enzyme_fwddiff(void *, ...);

static double square_sum(double *x, double scale, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return scale * s;
}

int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0, 1, 0};
  double d1 = __enzyme_fwddiff((void *)square_sum, enzyme_dup, x, dx, enzyme_const, 2.0, enzyme_const, 3);
  double d2 = __enzyme_fwddiff((void *)square_sum, enzyme_const, x, enzyme_dup, 2.0, 1.0, enzyme_const, 3);
  int ok = fabs(d1 - 8.0) < 1e-12 && fabs(d2 - 14.0) < 1e-12;
  printf("%s: d1 = %g (want 8), d2 = %g (want 14)\n", ok ? "ok" : "FAIL", d1, d2);
  return !ok;
}
