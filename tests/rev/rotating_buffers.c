// Buffers exchanged by pointer in a time loop, as solvers do with their old and new states: three
// pointers rotated every step and two of them swapped again when a data-dependent test holds. After
// optimisation the pointers are a web of phis that refer to one another in cycles; the activity and
// privacy walks over it once took time exponential in its size (a compile that never ended; found by
// the fuzzer). Checked against central finite differences (h 1e-5, tolerance 1e-6), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include "check.h"
#include <stdlib.h>

double __parad_autodiff(void *, ...);
enum { N = 6 };

__attribute__((noinline)) static double evolve(const double *x, int steps) {
  double a0[N], b0[N];
  double *c0 = malloc(N * sizeof *c0);
  double *a = a0, *b = b0, *c = c0;
  for (int i = 0; i < N; i++) a[i] = x[i], b[i] = 0.5 * x[i], c[i] = 1;
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < N; i++) {
      double l = a[(i + N - 1) % N], r = b[(i + 1) % N];
      c[i] = 0.25 * l + 0.5 * a[i] * c[i] + 0.25 * sin(r);
    }
    double *o = a;
    a = b, b = c, c = o;
    if (a[0] > b[1]) {
      o = a, a = c, c = o;
      if (c[2] < 0.3) o = b, b = c, c = o;
    }
    for (int k = 0; k < t % 3; k++)
      if (b[k] > a[k]) o = a, a = b, b = o;
  }
  double s = 0;
  for (int i = 0; i < N; i++) s += a[i] * b[i] + c[i];
  free(c0);
  return s;
}

typedef struct {
  double x[N];
  int i;
} Ctx;

static double along(void *p, double v) {
  Ctx *c = p;
  double y[N];
  for (int k = 0; k < N; k++) y[k] = c->x[k];
  y[c->i] = v;
  return evolve(y, 7);
}

int main(void) {
  Ctx c = {{0.5, -0.25, 0.75, 0.1, -0.6, 0.3}, 0};
  double dx[N] = {0};
  __parad_autodiff((void *)evolve, c.x, dx, 7);
  for (c.i = 0; c.i < N; c.i++) CHECK_CLOSE(dx[c.i], fd_central(along, &c, c.x[c.i], 1e-5), 1e-6);
  return check_done();
}
