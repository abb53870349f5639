/* euler_flux.h: the flux of a 1-D Euler solver as people write it, for the tests of values several blocks
 * of an iteration need (tests/rev/iteration_shares.c, tests/omp/iteration_shares.c): states as records of
 * three doubles read as arrays ((&s.r)[k]), a minmod limiter, and an HLL flux whose three arms (left,
 * right, between) each read both states and both wave speeds, per component. */
#ifndef PARAD_TEST_EULER_FLUX_H
#define PARAD_TEST_EULER_FLUX_H

#include <math.h>

typedef struct { double r, m, e; } State;
static const double GAMMA = 1.4;

static double minmod(double a, double b) {
  if (a * b <= 0) return 0;
  return fabs(a) < fabs(b) ? a : b;
}

/* A state's flux, velocity and sound speed. */
static void flux(const State *s, double *f, double *u, double *c) {
  *u = s->m / s->r;
  double p = (GAMMA - 1) * (s->e - 0.5 * s->m * *u);
  f[0] = s->m, f[1] = s->m * *u + p, f[2] = (s->e + p) * *u;
  *c = sqrt(GAMMA * p / s->r);
}

static void hll(const State *l, const State *r, double *out) {
  double fl[3], fr[3], ul, ur, cl, cr;
  flux(l, fl, &ul, &cl);
  flux(r, fr, &ur, &cr);
  double sl = fmin(ul - cl, ur - cr), sr = fmax(ul + cl, ur + cr);
  const double *ql = &l->r, *qr = &r->r;
  for (int k = 0; k < 3; k++) {
    if (sl >= 0) out[k] = fl[k];
    else if (sr <= 0) out[k] = fr[k];
    else out[k] = (sr * fl[k] - sl * fr[k] + sl * sr * (qr[k] - ql[k])) / (sr - sl);
  }
}

/* The limited left and right states at the interface between b and c, from the cells a, b, c, d. */
static void reconstruct(const State *a, const State *b, const State *c, const State *d, State *l, State *r) {
  const double *pa = &a->r, *pb = &b->r, *pc = &c->r, *pd = &d->r;
  double *lp = &l->r, *rp = &r->r;
  for (int k = 0; k < 3; k++) {
    lp[k] = pb[k] + 0.5 * minmod(pb[k] - pa[k], pc[k] - pb[k]);
    rp[k] = pc[k] - 0.5 * minmod(pc[k] - pb[k], pd[k] - pc[k]);
  }
}

#endif
