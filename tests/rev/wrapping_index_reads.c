// Reads at a wrapping index, as periodic boundaries and strided permutations write them: c[(7 i) % 64] and
// c[(3 i) & 63]. LLVM 19's loop vectoriser took the forward sweep's recording loop for an interleaved group
// at stride 7 (or 3) and recorded the wrong elements after the index wrapped (and read past the table's
// end): gradients 0 where cos((7 i) % 64) was due, 3 of 64 wrong at -O2, 20 at -O3 -march=native, no
// message. The derivative is linear: each element exact, both modes.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O3 -march=native -I%S/../include %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t && %t
#include <math.h>
#include <stdio.h>
#include "parad.h"

#define N 64

static double modulo(double *x) {
  double c[N], s = 0;
  for (int i = 0; i < N; i++) c[i] = cos(i);
  for (int i = 0; i < N; i++) s += x[i] * c[(i * 7) % N];
  return s;
}

static double masked(double *x) {
  double c[N], s = 0;
  for (int i = 0; i < N; i++) c[i] = sin(i);
  for (int i = 0; i < N; i++) s += x[i] * c[(i * 3) & (N - 1)];
  return s;
}

static int check(const char *name, double (*f)(double *), int k, double (*table)(double)) {
  double x[N], g[N] = {0}, v[N] = {0};
  for (int i = 0; i < N; i++) x[i] = sin(1.37 * i + 0.2);
  __parad_autodiff((void *)f, x, g);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double exact = table((i * k) % N);
    v[i] = 1;
    double t = __parad_fwddiff((void *)f, x, v);
    v[i] = 0;
    if (fabs(g[i] - exact) > 1e-14 || fabs(t - exact) > 1e-14) {
      printf("%s: d/dx[%d] reverse %.15g forward %.15g, exact %.15g\n", name, i, g[i], t, exact);
      bad++;
    }
  }
  printf("%s: %d of %d wrong\n", name, bad, N);
  return bad;
}

int main(void) { return (check("modulo", modulo, 7, cos) + check("masked", masked, 3, sin)) != 0; }
