// fmin and fmax whose argument the reverse sweep recomputes with another rounding than the forward sweep's:
// a = k / (1 + s*s) is an llvm.fmuladd, which the optimiser folds fused where s is a constant of the call
// (the forward sweep, specialised to the one call below), while the machine without FMA computes it in two
// roundings (the reverse sweep, from the recorded s). The rule once compared the argument with the
// recorded result for equality; they differed in the last bit and the adjoint went to the other argument
// (fuzzer, serial seed 17592 at -O2: d/ds 0 instead of 0.63, d/dx2 1 instead of 0). The rules now compare
// the arguments. Cases: fmin taking a, fmin taking x2, fmax taking a, fmax taking x2, each with s and x as
// constants of its one call, against the analytic gradient (1e-12) and central differences (1e-6).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O3 -march=native -I%S/../include %s -o %tn -lm && %tn
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);

static const int K[8] = {1, 0, 2, 1, 1, 1, 2, 2};
static double *G;

/* G_i = fmin(K_i / (1 + s^2), x_2); J = G_5 */
__attribute__((noinline)) double fmin_a(double *x, double s) {
  for (int i = 0; i < 8; i++) G[i] = fmin(K[i] / (1.0 + s * s), x[2]);
  return G[5];
}
__attribute__((noinline)) double fmin_x(double *x, double s) {
  for (int i = 0; i < 8; i++) G[i] = fmin(K[i] / (1.0 + s * s), x[2]);
  return G[5];
}
/* G_i = fmax(x_2, K_i / (1 + s^2)); J = G_6 */
__attribute__((noinline)) double fmax_a(double *x, double s) {
  for (int i = 0; i < 8; i++) G[i] = fmax(x[2], K[i] / (1.0 + s * s));
  return G[6];
}
__attribute__((noinline)) double fmax_x(double *x, double s) {
  for (int i = 0; i < 8; i++) G[i] = fmax(x[2], K[i] / (1.0 + s * s));
  return G[6];
}

typedef double (*Fn)(double *, double);

/* (d/dx_2, d/ds) of J at (x_2, s), k the K of the element returned, min or max */
static void want(int k, int max, double x2, double s, double *dx2, double *ds) {
  double a = k / (1 + s * s), da = -2 * s * k / ((1 + s * s) * (1 + s * s));
  int takes_a = max ? a > x2 : a < x2;
  *dx2 = takes_a ? 0 : 1;
  *ds = takes_a ? da : 0;
}

static void check(Fn f, int k, int max, const double *x, double s, const double *g, double ds) {
  double dx2, dss;
  want(k, max, x[2], s, &dx2, &dss);
  CHECK_CLOSE(g[0], 0, 0);
  CHECK_CLOSE(g[1], 0, 0);
  CHECK_CLOSE(g[2], dx2, 1e-12);
  CHECK_CLOSE(ds, dss, 1e-12);
  double h = 1e-6, xp[3], xm[3];
  memcpy(xp, x, sizeof xp), memcpy(xm, x, sizeof xm);
  xp[2] += h, xm[2] -= h;
  CHECK_CLOSE((f(xp, s) - f(xm, s)) / (2 * h), dx2, 1e-6);
  double xc[3];
  memcpy(xc, x, sizeof xc);
  CHECK_CLOSE((f(xc, s + h) - f(xc, s - h)) / (2 * h), dss, 1e-6);
}

int main(void) {
  G = malloc(8 * sizeof *G);
  { /* each call's arguments constants of it, as the fuzzer's were */
    double x[3] = {0.327, 0.354, 1.135}, g[3] = {0};
    double ds = __parad_autodiff((void *)fmin_a, x, g, -0.699);
    check(fmin_a, 1, 0, x, -0.699, g, ds);
  }
  {
    double x[3] = {0.327, 0.354, 0.5}, g[3] = {0};
    double ds = __parad_autodiff((void *)fmin_x, x, g, -0.699);
    check(fmin_x, 1, 0, x, -0.699, g, ds);
  }
  {
    double x[3] = {0.327, 0.354, 0.25}, g[3] = {0};
    double ds = __parad_autodiff((void *)fmax_a, x, g, 0.813);
    check(fmax_a, 2, 1, x, 0.813, g, ds);
  }
  {
    double x[3] = {0.327, 0.354, 1.75}, g[3] = {0};
    double ds = __parad_autodiff((void *)fmax_x, x, g, 0.813);
    check(fmax_x, 2, 1, x, 0.813, g, ds);
  }
  free(G);
  return check_done();
}
