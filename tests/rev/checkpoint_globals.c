// A checkpointed loop whose steps read globals: a rate no function writes (not noted: it keeps its value),
// and a coefficient the function itself changes after the loop (noted, so that the reverse sweep recomputes
// the steps with the value they had; the test sets it back before each call); the loop's bounds in a global
// grid size read in every step. Against the same function without the marker (taped step by step): the
// gradient and the result equal (1e-12), with no budget and a budget of a few snapshots; central
// differences along one component (1e-6). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include "check.h"

double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { STEPS = 2000 };
static int n = 40;
static double rate = 0.01, coef = 0.3;

#define GLOBALS(NAME, MARK)                                                                                 \
  double NAME(double *x) {                                                                               \
    double s = 0;                                                                                        \
    for (int t = 0; t < STEPS; t++) {                                                                    \
      MARK;                                                                                              \
      for (int i = 1; i < n; i++) x[i] += rate * sin(coef * x[i - 1] + 0.001 * t);                       \
      s += x[t % n] * rate;                                                                              \
    }                                                                                                    \
    coef = 0.7; /* the reverse sweep must recompute the steps with 0.3 */                                 \
    s += coef * x[0];                                                                                    \
    return s;                                                                                            \
  }
GLOBALS(globals_checkpointed, __parad_checkpoint_loop())
GLOBALS(globals_taped, (void)0)

static double start[64];
static double along(void *ctx, double v) {
  (void)ctx;
  double x[64];
  for (int i = 0; i < n; i++) x[i] = start[i];
  x[3] = v;
  coef = 0.3;
  return globals_checkpointed(x);
}

int main(void) {
  double x[64], dx[64] = {0}, x2[64], dx2[64];
  for (int i = 0; i < n; i++) start[i] = x[i] = cos(0.2 * i);
  __parad_autodiff((void *)globals_taped, x, dx);
  for (int i = 0; i < n; i++) x[i] = start[i];
  coef = 0.3;
  double J = globals_taped(x);
  const size_t budgets[] = {0, 300u << 10};
  for (int b = 0; b < 2; b++) {
    parad_set_tape_limit(budgets[b]);
    for (int i = 0; i < n; i++) x2[i] = start[i], dx2[i] = 0;
    coef = 0.3;
    __parad_autodiff((void *)globals_checkpointed, x2, dx2);
    for (int i = 0; i < n; i++) CHECK_CLOSE(dx2[i], dx[i], 1e-12);
  }
  parad_set_tape_limit(0);
  for (int i = 0; i < n; i++) x2[i] = start[i];
  coef = 0.3;
  CHECK_CLOSE(globals_checkpointed(x2), J, 1e-12);
  CHECK_CLOSE(dx[3], fd_central(along, NULL, start[3], 1e-5), 1e-6);
  return check_done();
}
