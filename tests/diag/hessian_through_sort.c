// Forward mode over a gradient whose function sorts a local array with qsort (an expected shortfall's
// losses): refused at the inner request, naming what it cannot follow. It said "a call of Parad's
// runtime", a call the program never makes; it names the local array the reverse sweep keeps for the sort
// now. (The gradient alone is built: tests/rev/qsort.c.) No output file.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <stdlib.h>
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double shortfall(const double *w) {
  double loss[64];
  for (int t = 0; t < 64; t++) loss[t] = w[0] * (t % 7) - w[1] * (t % 5) + 0.5 * w[0] * w[0];
  qsort(loss, 64, sizeof(double), by_value);
  double s = 0;
  for (int k = 60; k < 64; k++) s += loss[k];
  return s / 4;
}

static double grad(const double *w, double *g) {
  // CHECK: hessian_through_sort.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff of 'grad': forward mode over a reverse-mode derivative computed here cannot differentiate a local array kept on the heap for the reverse sweep (one given to qsort, to a registered derivative, or of 1 MiB or more) in it yet
  __parad_autodiff((void *)shortfall, w, g);
  return g[0];
}

int main(void) {
  double w[2] = {0.3, 0.7}, v[2] = {1, 0}, g[2] = {0, 0}, dg[2] = {0, 0};
  return (int)__parad_fwddiff((void *)grad, w, v, g, dg);
}
