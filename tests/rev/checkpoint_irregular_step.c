// A checkpointed time loop whose every tenth step does much more work than the others (a neighbour list
// or a preconditioner rebuilt now and then), under a budget: the forward sweep keeps snapshots while the
// budget leaves room beside twice the largest step tape it has seen, and the first big step's tape did
// not fit beside them: the program stopped over the budget. Now, where a step of the forward sweep would
// go over the budget, every other snapshot gives way first (runtime/checkpoint.c, __parad_rt_ckpt_relieve),
// as it would have had the step's tape been known. The gradient is checked against central differences
// (h = 1e-6, relative 1e-6) under budgets from tight to none, at -O2 and -O0
// (budgets 8 times larger: its step tapes are larger); at -O2's tightest budget
// the steps must have been recomputed (more than 2 runs a step).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0 8
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_checkpoint_loop(void);
double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void parad_checkpoint_counts(long *steps, long *runs);

enum { N = 8, STEPS = 60, SMALL = 2, BIG = 120 };

static double run(const double *a, int steps) {
  double u[N];
  for (int k = 0; k < N; k++) u[k] = a[k];
  for (int t = 0; t < steps; t++) {
    __parad_checkpoint_loop();
    int sweeps = t % 10 == 9 ? BIG : SMALL; /* the big step: many smoothing sweeps */
    for (int s = 0; s < sweeps; s++)
      for (int k = 1; k < N - 1; k++) u[k] = 0.5 * u[k] + 0.25 * (sin(u[k - 1]) + u[k + 1]);
    for (int k = 0; k < N; k++) u[k] += 0.01 * cos(u[k]);
  }
  double e = 0;
  for (int k = 0; k < N; k++) e += u[k] * u[k] * (1 + 0.1 * k);
  return e;
}

static double A0[N];
static double of_a(const double *a) { return run(a, STEPS); }

int main(int argc, char **argv) {
  size_t scale = argc > 1 ? (size_t)atoi(argv[1]) : 1; /* -O0's step tapes are larger */
  for (int k = 0; k < N; k++) A0[k] = 0.3 + 0.1 * k + 0.05 * sin(k);
  size_t budgets[4] = {0, 64u << 10, 32u << 10, 24u << 10};
  for (int b = 0; b < 4; b++) {
    parad_set_tape_limit(budgets[b] * scale);
    double g[N] = {0};
    __parad_autodiff((void *)run, A0, g, STEPS);
    long steps, runs;
    parad_checkpoint_counts(&steps, &runs);
    if (b == 3 && scale == 1) CHECK_CLOSE(runs > 2 * steps ? 1.0 : 0.0, 1.0, 0);
    parad_set_tape_limit(0);
    for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], fd_component(of_a, A0, N, j, 1e-6), 1e-6);
  }
  return check_done();
}
