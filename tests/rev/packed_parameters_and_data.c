// Parameters and data packed in one allocation, the parameters first (`block = [theta | x]`), the data
// reached through a struct passed constant that points at `block + 2`, the gradient of theta's size: the
// check that a constant argument holds no pointer into the differentiated memory took the rest of the block
// as theta's at -O2 (where the block's size is known) and stopped the program, which reads theta[0..1]
// only (probe p72). The extent is the shadow's at most now (ad/global_arguments.c): beyond it the argument
// has no derivative to miss. A pointer into theta itself still stops (tests/rev/constant_argument_aliases.c).
// Gradients against analytic ones (1e-10 relative) and the separate allocations', at -O2 and -O0, reverse
// and forward.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct { int n; const double *x; } Data;

__attribute__((noinline)) double lp(const double *th, void *vd) {
  const Data *d = vd;
  double s = 0;
  for (int i = 0; i < d->n; i++) {
    double r = d->x[i] - th[0] - th[1] * i;
    s -= r * r;
  }
  return s;
}

int main(void) {
  enum { N = 100 };
  double *block = malloc((2 + N) * sizeof(double)), *x = block + 2;
  for (int i = 0; i < N; i++) x[i] = 1 + 0.01 * i + 0.1 * sin(i);
  block[0] = 0.8, block[1] = 0.02;
  Data d = {N, x};
  double g[2] = {0}, want0 = 0, want1 = 0;
  for (int i = 0; i < N; i++) {
    double r = x[i] - block[0] - block[1] * i;
    want0 += 2 * r, want1 += 2 * r * i;
  }
  __parad_autodiff((void *)lp, block, g, parad_const, (void *)&d);
  CHECK_CLOSE(g[0], want0, 1e-10);
  CHECK_CLOSE(g[1], want1, 1e-10);
  double v[2] = {0, 1};
  CHECK_CLOSE(__parad_fwddiff((void *)lp, block, v, parad_const, (void *)&d), want1, 1e-10);
  double th[2] = {0.8, 0.02}, gs[2] = {0};
  __parad_autodiff((void *)lp, th, gs, parad_const, (void *)&d);
  CHECK_CLOSE(g[0], gs[0], 1e-12);
  free(block);
  return check_done();
}
