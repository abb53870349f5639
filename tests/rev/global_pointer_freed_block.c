// A file-scope pointer given a block the derivative allocates, read through it by a helper, and left
// pointing at the block after the function frees it by its own pointer (g_cur = y; ...; free(y)). The
// derivative's end kept the shadow its tape (or, in forward mode, the free) released for that block, and
// the program's exit freed it again: "free(): double free", exit status 134, after right derivatives.
// The block is now forgotten where its own pointer frees it.
// f = sum_i x_i^2, twice in a row in each mode (a second derivative reuses nothing of the first's).
// Gradient and forward tangents against the analytic derivative (1e-12), at -O2 and -O0; the program must
// exit normally.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include "parad.h"
#include "check.h"

enum { N = 3 };

static const double *g_cur;

static double sum_cur(int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += g_cur[i];
  return s;
}

static double f(const double *x, int n) {
  double *y = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
  g_cur = y;
  double s = sum_cur(n);
  free(y);
  return s;
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.7};
  for (int round = 0; round < 2; round++) {
    double dx[N] = {0};
    __parad_autodiff((void *)f, x, dx, N);
    for (int i = 0; i < N; i++) {
      double v[N] = {0};
      v[i] = 1;
      CHECK_CLOSE(dx[i], 2 * x[i], 1e-12);
      CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, N), 2 * x[i], 1e-12);
    }
  }
  return check_done();
}
