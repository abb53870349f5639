// A double's bits copied into an unsigned long long variable and back (memcpy both ways, the way C
// programs type-pun without undefined behaviour): the derivative moves with the bits, in both modes, at
// -O0 (where the integer variable's type says nothing of what it holds) and optimised. And in forward mode
// only, the bits passed to a function that is not inlined and copied into a heap double there
// (reverse mode refuses that: tests/diag/float_bits_call.c). g(x) = y x^2 with y = x's bits read back as a
// double (y = x): dg/dx = 3 x^2; h(x) = x * (x through the helper): dh/dx = 2 x (tolerance 1e-12), and
// central finite differences (h = 1e-6, tolerance 1e-8).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double g(double x) {
  unsigned long long u;
  memcpy(&u, &x, sizeof u);
  double y;
  memcpy(&y, &u, sizeof y);
  return y * x * x;
}

__attribute__((noinline)) static double *from_bits(unsigned long long u) {
  double *p = malloc(sizeof *p);
  memcpy(p, &u, sizeof u);
  return p;
}

__attribute__((noinline)) static double h(double x) {
  unsigned long long u;
  memcpy(&u, &x, sizeof u);
  double *p = from_bits(u);
  double r = *p * x;
  free(p);
  return r;
}

static double g_at(void *ctx, double x) { return g(x); }
static double h_at(void *ctx, double x) { return h(x); }

int main(void) {
  for (double x = -1.5; x < 2; x += 0.7) {
    CHECK_CLOSE(__parad_autodiff((void *)g, x), 3 * x * x, 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)g, x, 1.0), 3 * x * x, 1e-12);
    CHECK_CLOSE(fd_central(g_at, NULL, x, 1e-6), 3 * x * x, 1e-8);
    CHECK_CLOSE(__parad_fwddiff((void *)h, x, 1.0), 2 * x, 1e-12);
    CHECK_CLOSE(fd_central(h_at, NULL, x, 1e-6), 2 * x, 1e-8);
  }
  return check_done();
}
