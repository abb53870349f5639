// Explicit 1-D heat equation over several time steps with two malloc'd buffers whose pointers are
// swapped every step (pointer phis in the loop, each carrying its shadow). The tangent of the final
// energy sum u_i^2 with respect to the initial condition along a direction is checked against central
// finite differences (h = 1e-6, tolerance 1e-7), and the tangent of the final state written back
// through the output pointer against the same finite differences component by component.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

enum { N = 24 };

__attribute__((noinline)) static double heat(const double *u0, double *ufinal, int n, int steps, double r) {
  double *a = malloc(n * sizeof(double));
  double *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = u0[i];
  for (int s = 0; s < steps; s++) {
    b[0] = 0;
    b[n - 1] = 0;
    for (int i = 1; i < n - 1; i++) b[i] = a[i] + r * (a[i - 1] - 2 * a[i] + a[i + 1]) + 0.01 * a[i] * a[i];
    double *t = a; /* ping-pong: the buffers swap roles */
    a = b;
    b = t;
  }
  double e = 0;
  for (int i = 0; i < n; i++) e += a[i] * a[i], ufinal[i] = a[i];
  free(a);
  free(b);
  return e;
}

typedef struct { const double *dir; int comp; int steps; } Ctx;

static double along(void *p, double t) {
  Ctx *c = p;
  double u[N], out[N];
  for (int i = 0; i < N; i++) u[i] = sin(0.3 * i) + 0.5 + t * c->dir[i];
  double e = heat(u, out, N, c->steps, 0.3);
  return c->comp < 0 ? e : out[c->comp];
}

int main(void) {
  double u[N], du[N], out[N], dout[N];
  for (int i = 0; i < N; i++) u[i] = sin(0.3 * i) + 0.5, du[i] = cos(1.7 * i);
  for (int steps = 1; steps <= 7; steps += 3) { /* odd and even step counts end in different buffers */
    double d = __parad_fwddiff((void *)heat, u, du, out, dout, parad_const, N, parad_const, steps, parad_const, 0.3);
    Ctx c = {du, -1, steps};
    CHECK_CLOSE(d, fd_central(along, &c, 0, 1e-6), 1e-7);
    for (int k = 3; k < N; k += 5) {
      c.comp = k;
      CHECK_CLOSE(dout[k], fd_central(along, &c, 0, 1e-6), 1e-7);
    }
  }
  return check_done();
}
