// Explicit 1-D heat equation with a nonlinear source over several time steps, with two malloc'd buffers
// whose pointers swap every step (pointer phis carrying their shadows, freed at the end). Reverse mode:
// the gradient of the final energy with respect to the initial condition, and with the final state also
// written to an output array whose adjoint is seeded (the sum of both contributions comes back), for odd
// and even step counts (the result ends in different buffers) and for the diffusion number r (an active
// scalar). Central finite differences (h = 1e-6, tolerance 1e-7) and the forward tangent along every
// unit direction (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void __parad_fwddiff_v(void *, ...);

enum { N = 16 };

__attribute__((noinline)) static double heat(const double *u0, double *ufinal, int n, int steps, double r) {
  double *a = malloc(n * sizeof(double));
  double *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = u0[i];
  for (int s = 0; s < steps; s++) {
    b[0] = 0;
    b[n - 1] = 0;
    for (int i = 1; i < n - 1; i++) b[i] = a[i] + r * (a[i - 1] - 2 * a[i] + a[i + 1]) + 0.01 * a[i] * a[i];
    double *t = a;
    a = b;
    b = t;
  }
  double e = 0;
  for (int i = 0; i < n; i++) e += a[i] * a[i], ufinal[i] = a[i];
  free(a);
  free(b);
  return e;
}

static double U0[N], SEED[N];
typedef struct { int k, steps; } Ctx;

/* energy + SEED . ufinal, along unit direction k of (u0, r) */
static double along(void *p, double t) {
  Ctx *c = p;
  double u[N], out[N];
  for (int i = 0; i < N; i++) u[i] = U0[i] + (i == c->k) * t;
  double e = heat(u, out, N, c->steps, 0.3 + (c->k == N) * t);
  for (int i = 0; i < N; i++) e += SEED[i] * out[i];
  return e;
}

int main(void) {
  for (int i = 0; i < N; i++) U0[i] = sin(0.3 * i) + 0.5, SEED[i] = (i % 4 == 1) ? 0.5 * i : 0;
  for (int steps = 1; steps <= 8; steps += 3) {
    double u[N], du[N] = {0}, out[N], dout[N];
    for (int i = 0; i < N; i++) u[i] = U0[i], dout[i] = SEED[i];
    double dr = __parad_autodiff((void *)heat, u, du, out, dout, parad_const, N, parad_const, steps, 0.3);
    for (int i = 0; i < N; i++) CHECK_CLOSE(dout[i], 0.0, 0); /* the output's adjoint is consumed */
    for (int k = 0; k <= N; k++) {
      Ctx c = {k, steps};
      double got = k < N ? du[k] : dr;
      CHECK_CLOSE(got, fd_central(along, &c, 0, 1e-6), 1e-7);
      double e[N], o[N], dout2[N];
      for (int i = 0; i < N; i++) e[i] = i == k;
      double t = __parad_fwddiff((void *)heat, u, e, o, dout2, parad_const, N, parad_const, steps, 0.3, (double)(k == N));
      for (int i = 0; i < N; i++) t += SEED[i] * dout2[i];
      CHECK_CLOSE(got, t, 1e-12);
    }
  }
  return check_done();
}
