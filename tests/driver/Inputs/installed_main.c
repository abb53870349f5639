/* Built by an installed parad-cc: parad.h comes from its include/, nothing from the test tree. */
#include <math.h>
#include <parad.h>
#include <stdio.h>

#include "helpers.h"

static double f(const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * w[i] * (i + 1);
  return s;
}

int main(void) {
  double w[4], dw[4] = {0};
  fill(w, 4, 0.5, 0.25);
  __parad_autodiff((void *)f, w, dw, parad_const, 4);
  int bad = 0;
  for (int i = 0; i < 4; i++) bad += fabs(dw[i] - 2 * w[i] * (i + 1)) > 1e-12;
  printf("%s\n", bad ? "FAIL" : "gradient ok");
  return bad != 0;
}
