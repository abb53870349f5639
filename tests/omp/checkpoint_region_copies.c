// A checkpointed time loop as stencil codes write it: heap arrays u and un, a parallel loop that computes un
// from u, then memcpy(u, un) (double buffering) in every step. The step function gets the arrays through its
// variables, and its regions get their addresses (a shared variable is captured by address): no typed
// access in the step says what the copy moves, and it was refused ("cannot tell what this copy moves",
// fuzz seed omp 124). What a region or callee loads from such a variable and reads through it now says.
//   per step: un_i = u_i + 0.02 (u_{i-1} - 2 u_i + u_{i+1}) + 0.01 sin(u_i) (i = 1..M-2), u = un; f = sum_i u_i^2
// Against the same function without the marker (1e-12), at 1, 2 and 3 threads, with and without a budget
// that recomputes steps; against central differences along two components (1e-6). At -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void parad_checkpoint_counts(long *steps, long *runs);
void __parad_checkpoint_loop(void);

enum { M = 64, STEPS = 40 };

#define STEPPED(NAME, MARK)                                                                                 \
  static double NAME(const double *x) {                                                                    \
    double *u = malloc(M * sizeof *u), *un = malloc(M * sizeof *un), s = 0;                                \
    for (int i = 0; i < M; i++) u[i] = un[i] = x[i];                                                       \
    for (int t = 0; t < STEPS; t++) {                                                                      \
      MARK;                                                                                                \
      _Pragma("omp parallel for") for (int i = 1; i < M - 1; i++) un[i] = u[i] + 0.02 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * sin(u[i]); \
      memcpy(u, un, M * sizeof *u);                                                                        \
    }                                                                                                      \
    for (int i = 0; i < M; i++) s += u[i] * u[i];                                                          \
    free(u), free(un);                                                                                     \
    return s;                                                                                              \
  }
STEPPED(taped, (void)0)
STEPPED(checkpointed, __parad_checkpoint_loop())

int main(void) {
  double x[M], want[M] = {0};
  for (int i = 0; i < M; i++) x[i] = 0.5 * sin(0.3 * i + 0.1);
  __parad_autodiff((void *)taped, x, want);
  for (int budget = 0; budget < 2; budget++) {
    parad_set_tape_limit(budget ? 32 * 1024 : 0); /* below the whole tape: steps recomputed */
    double g[M] = {0};
    __parad_autodiff((void *)checkpointed, x, g);
    for (int j = 0; j < M; j++) CHECK_CLOSE(g[j], want[j], 1e-12);
    long steps, runs;
    parad_checkpoint_counts(&steps, &runs);
    if (budget) CHECK_CLOSE((double)(runs > 2 * steps), 1, 0); /* steps were recomputed */
  }
  parad_set_tape_limit(0);
  for (int j = 1; j < 8; j += 4) CHECK_CLOSE(want[j], fd_component(checkpointed, x, M, j, 1e-6), 1e-6);
  return check_done();
}
