// At -O0 every local pointer variable lives in a stack slot: a pointer to a local array or to malloc'd
// memory is stored into its slot and loaded back before each use, and the slot's shadow holds the shadow
// pointer; in reverse mode the reverse sweep must find the same shadow pointers again. A local array, a
// heap cell, a pointer to a pointer, and a ping-pong heat stencil with swapped malloc'd buffers. Analytic
// gradients (tolerance 1e-12), central finite differences for the stencil (h = 1e-6, tolerance 1e-7),
// and forward tangents along every unit direction (1e-12); at -O0 and -O2.
// RUN: %parad-cc %cflags -O0 %s -o %t0 && %t0
// RUN: %parad-cc %cflags %s -o %t && %t
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void __parad_autodiff_v(void *, ...);
double __parad_fwddiff(void *, ...);

static double through_local(double x) {
  double buf[2];
  double *a = buf;
  a[0] = x * x;
  a[1] = a[0] * x;
  double **pp = &a;
  return (*pp)[1] + (*pp)[0];
}

static double through_heap(double x) {
  double *a = malloc(sizeof(double));
  *a = x * x * x;
  double r = *a;
  *a = 0; /* overwritten after the read */
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

enum { N = 8, STEPS = 5 };
static double U0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double u[N];
  for (int i = 0; i < N; i++) u[i] = U0[i] + (i == k) * t;
  return heat(u, N, STEPS);
}

int main(void) {
  CHECK_CLOSE(__parad_autodiff((void *)through_local, 3.0), 3 * 9 + 6, 1e-12);
  CHECK_CLOSE(__parad_autodiff((void *)through_local, 3.0), __parad_fwddiff((void *)through_local, 3.0, 1.0), 1e-12);
  CHECK_CLOSE(__parad_autodiff((void *)through_heap, 2.0), 12, 1e-12);
  CHECK_CLOSE(__parad_autodiff((void *)through_heap, 2.0), __parad_fwddiff((void *)through_heap, 2.0, 1.0), 1e-12);
  double u[N], du[N] = {0}, e[N];
  for (int i = 0; i < N; i++) U0[i] = u[i] = 0.1 * i * i - 0.5;
  __parad_autodiff_v((void *)heat, u, du, parad_const, N, parad_const, STEPS);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(du[k], fd_central(along, &k, 0, 1e-6), 1e-7);
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(du[k], __parad_fwddiff((void *)heat, u, e, parad_const, N, parad_const, STEPS), 1e-12);
  }
  return check_done();
}
