// Nested checkpointed loops whose inner steps run OpenMP: E epochs, each a marked time loop of T steps of a
// parallel 1-D heat update (two heap buffers the inner loop swaps: the outer loop's pointer variables,
// swapped by the loop it calls), then a parallel reduction of the energy that sets the next epoch's
// diffusion coefficient. Against the same function without the markers (taped step by step): the result
// and the gradient with respect to the initial grid and the coefficient equal (1e-12 relative to the
// largest component), with no budget and budgets of 1 MB and 700 KB (the inner loops then recompute, 3.3
// to 3.5 runs per step), at 1, 2 and 4 threads at -O2 and 3 at -O0;
// one component against central differences (1e-6).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { N = 200, E = 6, T = 40 };

#define NEST(NAME, OUTER, INNER)                                                                            \
  double NAME(const double *x, double k) {                                                                \
    double *u = malloc(sizeof(double) * N), *v = malloc(sizeof(double) * N), s = 0;                        \
    for (int i = 0; i < N; i++) u[i] = v[i] = x[i];                                                        \
    for (int e = 0; e < E; e++) {                                                                          \
      OUTER;                                                                                               \
      for (int t = 0; t < T; t++) {                                                                        \
        INNER;                                                                                             \
        _Pragma("omp parallel for schedule(static)")                                                       \
        for (int i = 1; i < N - 1; i++) v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * sin(u[i]); \
        double *w = u;                                                                                     \
        u = v, v = w;                                                                                      \
      }                                                                                                    \
      double m = 0;                                                                                        \
      _Pragma("omp parallel for reduction(+ : m)")                                                         \
      for (int i = 0; i < N; i++) m += u[i] * u[i];                                                        \
      k = 0.1 + 0.1 / (1 + m);                                                                             \
      s += m * (e + 1);                                                                                    \
    }                                                                                                      \
    free(u), free(v);                                                                                      \
    return s;                                                                                              \
  }
NEST(nest_checkpointed, __parad_checkpoint_loop(), __parad_checkpoint_loop())
NEST(nest_taped, (void)0, (void)0)

static double x_at[N];
static double along(void *ctx, double x7) {
  (void)ctx;
  double keep = x_at[7];
  x_at[7] = x7;
  double J = nest_checkpointed(x_at, 0.2);
  x_at[7] = keep;
  return J;
}

int main(void) {
  double x[N], want[N] = {0}, largest = 0;
  for (int i = 0; i < N; i++) x_at[i] = x[i] = 0.5 + 0.3 * sin(0.2 * i);
  double dk_want = __parad_autodiff((void *)nest_taped, x, want, 0.2);
  largest = fabs(dk_want);
  for (int i = 0; i < N; i++) largest = fmax(largest, fabs(want[i]));
  CHECK_CLOSE(nest_checkpointed(x, 0.2), nest_taped(x, 0.2), 1e-12);
  const size_t budgets[] = {0, 1u << 20, 700u << 10};
  for (int b = 0; b < 3; b++) {
    parad_set_tape_limit(budgets[b]);
    double g[N] = {0};
    double dk = __parad_autodiff((void *)nest_checkpointed, x, g, 0.2);
    CHECK_CLOSE(dk / largest, dk_want / largest, 1e-12);
    for (int i = 0; i < N; i++) CHECK_CLOSE(g[i] / largest, want[i] / largest, 1e-12);
  }
  parad_set_tape_limit(0);
  CHECK_CLOSE(want[7], fd_central(along, NULL, x[7], 1e-6), 1e-6);
  return check_done();
}
