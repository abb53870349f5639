// A checkpointed loop whose steps run a parallel region that reads a global at several constant addresses
// (G[1], G[3], G[5]): each such read is noted once, when the region's function starts, after the thread
// number the notes take. The second one was placed before that number (at the function's first
// instruction, which the first note had made the thread number's call): the module was invalid ("does not
// dominate all uses", fuzz seed omp 39 at -O2). G holds derivatives: f writes it from x before the loop.
// The step then copies the array the region filled (un) back (u): the optimiser makes that a memcpy, whose
// data the step's own accesses do not show (the region's function writes un), and which was refused ("cannot
// tell what this copy moves"); the kinds of the accesses of the functions a step hands an array to, a
// region's included, now say.
//   G_k = 0.1 x_k (k < 8), then per step: u_i += 0.01 (G_1 sin(u_{i-1}) + G_3 u_i + G_5) (i = 1..M-1, from the
//   step's old u)
//   f = sum_i u_i^2
// Against the same function without the marker (1e-12), at 1, 2 and 3 threads, with a budget that
// recomputes steps; against central differences along two components (1e-6). At -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void parad_checkpoint_counts(long *steps, long *runs);
void __parad_checkpoint_loop(void);

enum { M = 64, STEPS = 40 };
static double G[8];

#define STEPPED(NAME, MARK)                                                                                 \
  static double NAME(const double *x) {                                                                    \
    double u[M], un[M], s = 0;                                                                             \
    for (int k = 0; k < 8; k++) G[k] = 0.1 * x[k];                                                         \
    for (int i = 0; i < M; i++) u[i] = x[i];                                                               \
    for (int t = 0; t < STEPS; t++) {                                                                      \
      MARK;                                                                                                \
      _Pragma("omp parallel for") for (int i = 1; i < M; i++) un[i] = u[i] + 0.01 * (G[1] * sin(u[i - 1]) + G[3] * u[i] + G[5]); \
      for (int i = 1; i < M; i++) u[i] = un[i];                                                            \
    }                                                                                                      \
    for (int i = 0; i < M; i++) s += u[i] * u[i];                                                          \
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
