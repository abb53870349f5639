// Values several blocks of one loop iteration need, recorded once at its latch (reverse/rev_iteration.c).
// A 1-D Euler solver's flux loop as people write it: states as records of three doubles read as arrays
// ((&s.r)[k], the reconstruction's loop unrolled with them: ad/local_array_loops.c), a minmod limiter and
// an HLL flux whose three arms (left, right, between) each read the same states and wave speeds, per
// component (tests/include/euler_flux.h, shared with tests/omp/iteration_shares.c). The arms and the
// limiters' joins used to record the same loads and sound speeds once each.
// The gradient with respect to the initial density is checked against tangents (1e-10) and central
// differences (h = 1e-6, 1e-6) at -O2 and -O0, with data that keeps away from the limiter's and the
// wave speeds' kinks; the tape at -O2 must stay under 400 bytes per interface and step (the last
// stop's compiler: 560; this one: 270).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0 -O0
#include <math.h>
#include <string.h>
#include "check.h"
#include "euler_flux.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_recorded_bytes(void);

enum { N = 12, STEPS = 3 };

__attribute__((noinline)) static void fluxes(const State *q, double *F) {
  for (int i = 2; i < N - 1; i++) { // interface i, between cells i-1 and i
    State l, r;
    reconstruct(&q[i - 2], &q[i - 1], &q[i], &q[i + 1], &l, &r);
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
