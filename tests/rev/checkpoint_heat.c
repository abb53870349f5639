// A checkpointed time loop (__parad_checkpoint_loop()): a 1-D heat equation with a nonlinear source,
// u <- u + k (u[i-1] - 2 u[i] + u[i+1]) + s sin(u[i]), two heap arrays swapped every step and freed after
// the loop, J = sum (i + 1) u_i^2. The same function without the marker is taped step by step; with it
// the forward sweep keeps snapshots and the reverse sweep recomputes. For 1,000 and 10,000 steps and
// budgets from one step's tape and a few snapshots to everything (none): the primal result and the
// gradient (with respect to u0 and k) equal the taped ones to 1e-12, and the gradient matches central
// differences (1e-6); the peak of tape and snapshots stays under the budget where one is set.
// RUN: %parad-cc %cflags %s -o %t -lm && %t 1000 && %t 10000
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0 300
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
size_t parad_tape_peak_bytes(void);
void parad_tape_reset_peak(void);
void __parad_checkpoint_loop(void);

enum { N = 64 };
static int steps;

#define HEAT(NAME, MARK)                                                                                    \
  double NAME(const double *u0, double k) {                                                               \
    double *u = malloc(sizeof(double) * N), *v = malloc(sizeof(double) * N);                                \
    memcpy(u, u0, sizeof(double) * N);                                                                     \
    for (int t = 0; t < steps; t++) {                                                                      \
      MARK;                                                                                                \
      for (int i = 1; i < N - 1; i++) v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * sin(u[i]); \
      v[0] = u[0], v[N - 1] = u[N - 1];                                                                    \
      double *w = u;                                                                                       \
      u = v, v = w;                                                                                        \
    }                                                                                                      \
    double J = 0;                                                                                          \
    for (int i = 0; i < N; i++) J += (i + 1) * u[i] * u[i];                                                \
    free(u), free(v);                                                                                      \
    return J;                                                                                              \
  }
HEAT(heat_checkpointed, __parad_checkpoint_loop())
HEAT(heat_taped, (void)0)

static double along(void *ctx, double h) { /* J along u0[3] */
  double *u0 = ctx, keep = u0[3];
  u0[3] = keep + h;
  double J = heat_checkpointed(u0, 0.2);
  u0[3] = keep;
  return J;
}

int main(int argc, char **argv) {
  steps = argc > 1 ? atoi(argv[1]) : 1000;
  double u0[N], want[N] = {0}, dk_want = 0;
  for (int i = 0; i < N; i++) u0[i] = sin(0.3 * i) + 0.5;
  dk_want = __parad_autodiff((void *)heat_taped, u0, want, 0.2);
  CHECK_CLOSE(heat_checkpointed(u0, 0.2), heat_taped(u0, 0.2), 1e-12);
  /* none, everything, tens of snapshots, a few (beside 64 KiB tape chunks: the loop's, one step's, a spare) */
  const size_t budgets[] = {0, 64u << 20, 600u << 10, 320u << 10};
  for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {
    if (budgets[b]) parad_set_tape_limit(budgets[b]);
    parad_tape_reset_peak();
    double g[N] = {0};
    double dk = __parad_autodiff((void *)heat_checkpointed, u0, g, 0.2);
    for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], want[i], 1e-12);
    CHECK_CLOSE(dk, dk_want, 1e-12);
    if (budgets[b] && parad_tape_peak_bytes() > budgets[b]) {
      printf("peak %zu bytes over the budget of %zu\n", parad_tape_peak_bytes(), budgets[b]);
      CHECK_CLOSE(1, 0, 0);
    }
  }
  if (steps <= 1000) CHECK_CLOSE(want[3], fd_central(along, u0, 0, 1e-5), 1e-6);
  return check_done();
}
