// Checkpointed time loops with their state in the function's variables: a Lotka-Volterra system
// integrated by Heun's method (y' = (a y0 - b y0 y1, c y0 y1 - d y1)), the state a local array, the
// slopes computed by a helper that writes through pointers, the time a local scalar, and a loop that
// leaves early (break when the prey passes a bound) or returns from inside (a NaN guard). The same
// functions without the marker are taped step by step: for 100,000 steps, with no budget and with
// budgets of a few and of tens of snapshots, the result and the gradient with respect to the parameters
// and the initial state equal the taped ones to 1e-12; against central differences (1e-6) at 2,000. Forward
// mode differentiates the marked loop as any loop: its tangent along y0 is the gradient's component (1e-10).
// RUN: %parad-cc %cflags %s -o %t -lm && %t 100000 && %t 2000
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0 2000
#include <stdlib.h>
#include "check.h"

typedef struct {
  double y0, y1; /* the gradient with respect to the initial state */
} Pair;
Pair __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
extern int parad_dup, parad_const;
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

static int steps;
static double bound = 1e9;

static void slope(const double *p, const double *y, double *dy) {
  dy[0] = p[0] * y[0] - p[1] * y[0] * y[1];
  dy[1] = p[2] * y[0] * y[1] - p[3] * y[1];
}

#define LOTKA(NAME, MARK)                                                                                   \
  double NAME(const double *p, double y0, double y1) {                                                    \
    double y[2] = {y0, y1}, t = 0, h = 20.0 / steps;                                                       \
    for (int s = 0; s < steps; s++) {                                                                      \
      MARK;                                                                                                \
      double k1[2], k2[2], m[2];                                                                           \
      slope(p, y, k1);                                                                                     \
      m[0] = y[0] + h * k1[0], m[1] = y[1] + h * k1[1];                                                    \
      slope(p, m, k2);                                                                                     \
      y[0] += 0.5 * h * (k1[0] + k2[0]);                                                                   \
      y[1] += 0.5 * h * (k1[1] + k2[1]);                                                                   \
      t += h;                                                                                              \
      if (y[0] != y[0]) return -1;                                                                         \
      if (y[0] > bound) break;                                                                             \
    }                                                                                                      \
    return y[0] * y[1] + t * y[0];                                                                         \
  }
LOTKA(lotka_checkpointed, __parad_checkpoint_loop())
LOTKA(lotka_taped, (void)0)

static double p_at[4], y1_at = 0.7;
static double along_y0(void *ctx, double y0) {
  (void)ctx;
  return lotka_checkpointed(p_at, y0, y1_at);
}

int main(int argc, char **argv) {
  steps = argc > 1 ? atoi(argv[1]) : 2000;
  double p[4] = {1.1, 0.4, 0.1, 0.4};
  for (int i = 0; i < 4; i++) p_at[i] = p[i];
  for (int pass = 0; pass < 2; pass++) { /* the second leaves the loop early */
    bound = pass ? 2.5 : 1e9;
    double dp_want[4] = {0};
    Pair want = __parad_autodiff((void *)lotka_taped, p, dp_want, 0.9, 0.7);
    CHECK_CLOSE(lotka_checkpointed(p, 0.9, 0.7), lotka_taped(p, 0.9, 0.7), 1e-12);
    const size_t budgets[] = {0, 1u << 20, 600u << 10};
    for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {
      parad_set_tape_limit(budgets[b]);
      double dp[4] = {0};
      Pair got = __parad_autodiff((void *)lotka_checkpointed, p, dp, 0.9, 0.7);
      CHECK_CLOSE(got.y0, want.y0, 1e-12);
      CHECK_CLOSE(got.y1, want.y1, 1e-12);
      for (int i = 0; i < 4; i++) CHECK_CLOSE(dp[i], dp_want[i], 1e-12);
    }
    parad_set_tape_limit(0);
    double zero[4] = {0};
    CHECK_CLOSE(__parad_fwddiff((void *)lotka_checkpointed, parad_dup, p, zero, 0.9, 1.0, 0.7, 0.0), want.y0, 1e-10);
    if (steps <= 2000) CHECK_CLOSE(want.y0, fd_central(along_y0, NULL, 0.9, 1e-6), 1e-6);
  }
  return check_done();
}
