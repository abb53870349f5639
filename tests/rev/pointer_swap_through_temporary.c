// Two pointers into active memory swapped by a byte-wise swap through a temporary (memcpy, which the
// optimiser makes integer loads and stores: t = *a; *a = *b; *b = t). The reverse mode's forward sweep
// read the shadow of `t` from a's shadow when storing it, after the swap had overwritten that: both
// pointers got b's shadow, and the gradient of 1 *p[0] + 10 *p[1] after the swap was (0, 11) for (10, 1),
// with no message. Exact values expected (the derivative is linear), both modes, -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t && %t
#include <stdio.h>
#include <string.h>
#include "parad.h"

__attribute__((noinline)) static void swap(void *a, void *b, size_t n) {
  unsigned char t[32];
  memcpy(t, a, n);
  memcpy(a, b, n);
  memcpy(b, t, n);
}

static double f(double *v) {
  double *p[2] = {&v[0], &v[1]};
  swap(&p[0], &p[1], sizeof p[0]);
  return 1 * *p[0] + 10 * *p[1];
}

int main(void) {
  double v[2] = {1, 2}, g[2] = {0, 0}, dv[2] = {1, 0};
  __parad_autodiff((void *)f, v, g);
  double t = __parad_fwddiff((void *)f, v, dv);
  printf("gradient %g %g (10 1), tangent %g (10)\n", g[0], g[1], t);
  return !(g[0] == 10 && g[1] == 1 && t == 10);
}
