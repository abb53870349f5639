// A helper no request names, given by its caller memory without a shadow (a static matrix of rows kept
// between calls, as Numerical Recipes' mrqmin keeps `oneda`): its refusal names what the caller gives it.
// It told the program to pass the helper's parameter with parad_dup and a shadow, though the program never
// hands the helper to Parad. At -O0, where the helper's parameter is what the store goes through.
// RUN: rm -f %t && not %parad-cc -O0 -I%S/../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <stdlib.h>

double __parad_autodiff(void *, ...);

__attribute__((noinline)) void scale(double **a, double **b, int n) {
  // CHECK: callee_given_unshadowed.c:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}parameter 2 of 'scale', which 'step' gives a pointer loaded from the global variable 'step.rows'
  for (int i = 0; i < n; i++) b[i][0] *= a[i][i];
}

static double step(double **a, int n) {
  static double **rows;
  if (!rows) {
    rows = malloc(n * sizeof *rows);
    for (int i = 0; i < n; i++) rows[i] = malloc(sizeof **rows);
  }
  for (int j = 0; j < n; j++) rows[j][0] = a[j][j] + 1.0;
  scale(a, rows, n);
  double s = 0;
  for (int j = 0; j < n; j++) s += rows[j][0] * (j + 1);
  return s;
}

int main(void) {
  double r0[2] = {1, 2}, r1[2] = {3, 4}, d0[2] = {0}, d1[2] = {0};
  double *a[2] = {r0, r1}, *da[2] = {d0, d1};
  __parad_autodiff((void *)step, a, da, 2);
  return 0;
}
