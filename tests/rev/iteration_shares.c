// Values several blocks of one loop iteration need, recorded once at its latch (reverse/rev_iteration.c).
// A 1-D Euler solver's flux loop as people write it: states as records of three doubles read as arrays
// ((&s.r)[k], the reconstruction's loop unrolled with them: ad/local_array_loops.c), a minmod limiter and
// an HLL flux whose three arms (left, right, between) each read the same states and wave speeds, per
// component. The arms and the limiters' joins used to record the same loads and sound speeds once each.
// The gradient with respect to the initial density is checked against tangents (1e-10) and central
// differences (h = 1e-6, 1e-6) at -O2 and -O0, with data that keeps away from the limiter's and the
// wave speeds' kinks; the tape at -O2 must stay under 400 bytes per interface and step (the last
// stop's compiler: 560; this one: 270).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0 -O0
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_recorded_bytes(void);

typedef struct { double r, m, e; } State;
enum { N = 12, STEPS = 3 };
static const double GAMMA = 1.4;

static double minmod(double a, double b) {
  if (a * b <= 0) return 0;
  return fabs(a) < fabs(b) ? a : b;
}

static void flux(const State *q, double *f, double *c) {
  double u = q->m / q->r, p = (GAMMA - 1) * (q->e - 0.5 * q->m * u);
  f[0] = q->m;
  f[1] = q->m * u + p;
  f[2] = (q->e + p) * u;
  *c = sqrt(GAMMA * p / q->r);
}

static void hll(const State *l, const State *r, double *out) {
  double fl[3], fr[3], cl, cr;
  flux(l, fl, &cl);
  flux(r, fr, &cr);
  double ul = l->m / l->r, ur = r->m / r->r;
  double sl = fmin(ul - cl, ur - cr), sr = fmax(ul + cl, ur + cr);
  const double *ql = &l->r, *qr = &r->r;
  for (int k = 0; k < 3; k++) {
    if (sl >= 0) out[k] = fl[k];
    else if (sr <= 0) out[k] = fr[k];
    else out[k] = (sr * fl[k] - sl * fr[k] + sl * sr * (qr[k] - ql[k])) / (sr - sl);
  }
}

__attribute__((noinline)) static void fluxes(const State *q, double *F) {
  for (int i = 2; i < N - 1; i++) { // interface i, between cells i-1 and i
    State l, r;
    const double *a = &q[i - 2].r, *b = &q[i - 1].r, *c = &q[i].r, *d = &q[i + 1].r;
    double *lp = &l.r, *rp = &r.r;
    for (int k = 0; k < 3; k++) {
      lp[k] = b[k] + 0.5 * minmod(b[k] - a[k], c[k] - b[k]);
      rp[k] = c[k] - 0.5 * minmod(c[k] - b[k], d[k] - c[k]);
    }
    hll(&l, &r, &F[3 * i]);
  }
}

static double solve(const double *rho) {
  State q[N];
  double F[3 * N] = {0}, dt = 0.02;
  for (int i = 0; i < N; i++) q[i] = (State){rho[i], 0.05 * i + 0.0013 * i * i, (1.0 + 0.02 * i * i) / (GAMMA - 1)};
  for (int s = 0; s < STEPS; s++) {
    fluxes(q, F);
    for (int i = 2; i < N - 2; i++) {
      double *qi = &q[i].r;
      for (int k = 0; k < 3; k++) qi[k] -= dt * (F[3 * (i + 1) + k] - F[3 * i + k]);
    }
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += q[i].e * q[i].r + q[i].m * q[i].m;
  return J;
}

int main(int argc, char **argv) {
  double rho[N], g[N] = {0};
  for (int i = 0; i < N; i++) rho[i] = 1 + 0.1 * i + 0.013 * i * i; // convex: no ties in the limiter
  CHECK_GRADIENT(solve, rho, N, 1e-10, 1e-6, 1e-6);
  size_t before = parad_tape_recorded_bytes();
  __parad_autodiff((void *)solve, rho, g);
  double per = (double)(parad_tape_recorded_bytes() - before) / ((N - 3) * STEPS);
  printf("tape: %.0f bytes per interface and step\n", per);
  if (argc == 1) CHECK_CLOSE(per <= 400, 1, 0); /* the bound, at -O2 */
  return check_done();
}
