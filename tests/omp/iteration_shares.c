// Values several blocks of one loop iteration need, recorded once at its latch (reverse/rev_iteration.c),
// in a parallel region: an Euler solver's flux loop with clamped neighbour indices (q[i-2 < 0 ? 0 : i-2]),
// whose loads the reverse sweep reads back from the region's copy of q where the runtime makes one. They
// are recorded at the latch with that copy's test, as the blocks that need them would have, and laid out
// last in the latch's record, which no block then follows (rev_values.c, can_follow), so that a run whose
// copy is made leaves them out. MUSCL reconstruction with a minmod limiter, HLL fluxes
// (tests/include/euler_flux.h), SSP-RK2 in time, states as records read as arrays. The gradient with
// respect to the initial density is checked against tangents (1e-10) and central differences (h = 1e-6,
// 1e-6) with 1, 2, 3 and 4 threads and at -O0, with data that keeps away from the limiter's and the wave
// speeds' kinks; at -O2 the tape must stay under 200 bytes per interface and flux evaluation (the last
// stop's compiler: 551; with the latch shared but followed, its copied loads always recorded: 241; now
// 141-153).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm
// RUN: OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0 -O0
#include <math.h>
#include <string.h>
#include "check.h"
#include "euler_flux.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_recorded_bytes(void);

enum { N = 40, STEPS = 2 };
static State q[N], q1[N], dq[N];
static double F[3 * N + 3];

static void rhs(const State *s, double dx) {
#pragma omp parallel for schedule(static)
  for (int i = 1; i < N; i++) {
    State l, r;
    reconstruct(&s[i - 2 < 0 ? 0 : i - 2], &s[i - 1], &s[i], &s[i + 1 >= N ? N - 1 : i + 1], &l, &r);
    hll(&l, &r, &F[3 * i]);
  }
#pragma omp parallel for schedule(static)
  for (int i = 1; i < N - 1; i++) {
    double *o = &dq[i].r;
    for (int k = 0; k < 3; k++) o[k] = -(F[3 * (i + 1) + k] - F[3 * i + k]) / dx;
  }
}

static double solve(const double *rho) {
  double dx = 1.0 / N, dt = 0.1 * dx;
  for (int i = 0; i < N; i++) q[i] = (State){rho[i], 0.05 * i + 0.0013 * i * i, (1.0 + 0.002 * i * i) / (GAMMA - 1)};
  memset(dq, 0, sizeof dq);
  for (int s = 0; s < STEPS; s++) {
    rhs(q, dx);
#pragma omp parallel for schedule(static)
    for (int i = 1; i < N - 1; i++) {
      const double *a = &q[i].r, *d = &dq[i].r;
      double *o = &q1[i].r;
      for (int k = 0; k < 3; k++) o[k] = a[k] + dt * d[k];
    }
    q1[0] = q[0], q1[N - 1] = q[N - 1];
    rhs(q1, dx);
#pragma omp parallel for schedule(static)
    for (int i = 1; i < N - 1; i++) {
      double *a = &q[i].r;
      const double *b = &q1[i].r, *d = &dq[i].r;
      for (int k = 0; k < 3; k++) a[k] = 0.5 * (a[k] + b[k] + dt * d[k]);
    }
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += q[i].e * q[i].r + q[i].m * q[i].m;
  return J;
}

int main(int argc, char **argv) {
  (void)argv;
  double rho[N];
  for (int i = 0; i < N; i++) rho[i] = 1 + 0.03 * i + 0.0011 * i * i; // convex: no ties in the limiter
  CHECK_GRADIENT(solve, rho, N, 1e-10, 1e-6, 1e-6);
  double g[N] = {0};
  size_t before = parad_tape_recorded_bytes();
  __parad_autodiff((void *)solve, rho, g);
  double per = (double)(parad_tape_recorded_bytes() - before) / ((N - 1) * 2 * STEPS);
  printf("tape: %.0f bytes per interface and flux evaluation\n", per);
  if (argc == 1) CHECK_CLOSE(per <= 200, 1, 0); /* the bound, at -O2 */
  return check_done();
}
