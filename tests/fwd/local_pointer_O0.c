// At -O0 every local pointer variable lives in a stack slot: a pointer to a local array or to malloc'd
// memory is stored into its slot and loaded back before each use. The slot gets a shadow holding the
// shadow pointer. Checks: analytic tangents (tolerance 1e-12) and, for a ping-pong heat stencil with
// swapped malloc'd buffers, central finite differences (h = 1e-6, tolerance 1e-7); at -O0 and -O2.
// RUN: %parad-cc %cflags -O0 %s -o %t0 && %t0
// RUN: %parad-cc %cflags %s -o %t && %t
#include <stdlib.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

static double through_local(double x) {
  double buf[1];
  double *a = buf;
  *a = x * x;
  return *a;
}

static double through_heap(double x) {
  double *a = malloc(sizeof(double));
  *a = x * x * x;
  double r = *a;
  free(a);
  return r;
}

static double heat(const double *u0, int n, int steps) {
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = u0[i];
  for (int s = 0; s < steps; s++) {
    b[0] = b[n - 1] = 0;
    for (int i = 1; i < n - 1; i++) b[i] = a[i] + 0.3 * (a[i - 1] - 2 * a[i] + a[i + 1]) + 0.01 * a[i] * a[i];
    double *t = a;
    a = b;
    b = t;
  }
  double e = 0;
  for (int i = 0; i < n; i++) e += a[i] * a[i];
  free(a);
  free(b);
  return e;
}

static double along(void *ctx, double t) {
  double u[8], *dir = ctx;
  for (int i = 0; i < 8; i++) u[i] = 0.1 * i * i - 0.5 + t * dir[i];
  return heat(u, 8, 5);
}

int main(void) {
  CHECK_CLOSE(__parad_fwddiff((void *)through_local, 3.0, 1.0), 6, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)through_heap, 2.0, 1.0), 12, 1e-12);
  double u[8], du[8];
  for (int i = 0; i < 8; i++) u[i] = 0.1 * i * i - 0.5, du[i] = (i % 3) - 1.0;
  CHECK_CLOSE(__parad_fwddiff((void *)heat, u, du, parad_const, 8, parad_const, 5), fd_central(along, du, 0, 1e-6), 1e-7);
  return check_done();
}
