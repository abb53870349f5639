// Checkpointed loops whose steps use globals that hold derivatives, as codes keep their state in file-scope
// arrays: coefficients the function computes from x before the loop and the steps read (`coefs`, directly
// and through a callee), and a field the steps advance in place through functions without arguments
// (`step` reads u and writes unew, then copies it back; `measure` sums into a global). These were refused:
// a step's derivative run by the loop's runner zeroed the globals' adjoints at its entry, as a request's
// does (the runner was not recognised: its mark is a string attribute, asked for as an enum one), so each
// step's reverse sweep lost the adjoints the steps after it had added; a gradient exactly the last step's
// share (found by this test's first form, tests/diag/checkpoint_active_global.c, which was a refusal).
//   coefs_i = 0.05 x_{i+1 mod M}, u = x, then per step: unew_i = u_i + coefs_i sin(u_{i-1}) + nu (u_{i-1} - 2 u_i
//   + u_{i+1}) (i = 1..M-2), u_i = unew_i; f = sum_i u_i^2 (measure)
// Against the same function without the marker (taped step by step): gradient and result equal (1e-12)
// with no budget and with a budget of 150 KB (steps recomputed, checked by the counts);
// against central differences along three components (1e-6). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void parad_checkpoint_counts(long *steps, long *runs);
void __parad_checkpoint_loop(void);

enum { M = 24, STEPS = 300 };
static double coefs[M], u[M], unew[M], energy;
static const double nu = 0.2;

__attribute__((noinline)) static double coef(int i) { return coefs[i]; }

__attribute__((noinline)) static void step(void) {
  for (int i = 1; i < M - 1; i++) unew[i] = u[i] + coef(i) * sin(u[i - 1]) + nu * (u[i - 1] - 2 * u[i] + u[i + 1]);
  for (int i = 1; i < M - 1; i++) u[i] = unew[i];
}

__attribute__((noinline)) static void measure(void) {
  energy = 0;
  for (int i = 0; i < M; i++) energy += u[i] * u[i];
}

#define STATE(NAME, MARK)                                                                                   \
  static double NAME(const double *x) {                                                                    \
    for (int i = 0; i < M; i++) coefs[i] = 0.05 * x[(i + 1) % M], u[i] = x[i];                            \
    for (int t = 0; t < STEPS; t++) {                                                                      \
      MARK;                                                                                                \
      step();                                                                                              \
      u[t % M] += 1e-3 * coefs[(t + 3) % M];                                                               \
    }                                                                                                      \
    measure();                                                                                             \
    return energy;                                                                                         \
  }
STATE(taped, (void)0)
STATE(checkpointed, __parad_checkpoint_loop())

int main(void) {
  double x[M], want[M] = {0};
  for (int i = 0; i < M; i++) x[i] = 0.4 * sin(0.7 * i + 0.2);
  __parad_autodiff((void *)taped, x, want);
  for (int budget = 0; budget < 2; budget++) {
    parad_set_tape_limit(budget ? 150 * 1024 : 0);
    double g[M] = {0};
    __parad_autodiff((void *)checkpointed, x, g);
    for (int j = 0; j < M; j++) CHECK_CLOSE(g[j], want[j], 1e-12);
    long steps, runs;
    parad_checkpoint_counts(&steps, &runs);
    if (budget) CHECK_CLOSE((double)(runs > 2 * steps), 1, 0); /* steps were recomputed */
  }
  parad_set_tape_limit(0);
  CHECK_CLOSE(checkpointed(x), taped(x), 1e-12);
  for (int j = 0; j < M; j += 9) CHECK_CLOSE(want[j], fd_component(checkpointed, x, M, j, 1e-6), 1e-6);
  return check_done();
}
