// A checkpointed time loop whose steps run OpenMP: each step a parallel 1-D heat update of a grid (swapped
// arrays) with a nonlinear source, and a parallel reduction of the grid's energy that damps the next
// step, u <- u + k lap(u) + 0.01 sin(u) - 1e-4 E u, E = sum u^2. Against the same function without the
// marker (taped step by step, each region as Parad's OpenMP reverse mode does it): the result and the
// gradient with respect to the initial grid and k equal (1e-12 relative to the largest component: the
// reduction's order differs with the team), with no budget and a budget of a few snapshots, at 1, 2 and
// 4 threads at -O2 and 3 at -O0; one component against central differences (1e-6). With SCRATCH, each step
// allocates a block, fills it with the source term in a parallel region of its own, reads it in the
// update and frees it (the block is no state: each recomputation of the step allocates it again).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: %parad-cc %cflags -fopenmp -DSCRATCH %s -o %t1 -lm && OMP_NUM_THREADS=1 %t1 && OMP_NUM_THREADS=2 %t1 && OMP_NUM_THREADS=4 %t1
// RUN: %parad-cc -O0 -fopenmp -DSCRATCH -I%S/../include %s -o %t2 -lm && OMP_NUM_THREADS=3 %t2
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { N = 400, STEPS = 200 };

#ifdef SCRATCH /* the source term in a block of the step's own */
#define SOURCE_BEGIN                                                                                        \
  double *src = malloc(sizeof(double) * N);                                                                \
  _Pragma("omp parallel for schedule(static)")                                                             \
  for (int i = 0; i < N; i++) src[i] = 0.01 * sin(u[i]);
#define SOURCE(i) src[i]
#define SOURCE_END free(src);
#else
#define SOURCE_BEGIN
#define SOURCE(i) 0.01 * sin(u[i])
#define SOURCE_END
#endif

#define HEAT(NAME, MARK)                                                                                    \
  double NAME(const double *u0, double k) {                                                               \
    double *u = malloc(sizeof(double) * N), *v = malloc(sizeof(double) * N), e = 0;                        \
    for (int i = 0; i < N; i++) u[i] = v[i] = u0[i]; /* (memcpy: at -O0 the type of u is only in the loop) */ \
    for (int t = 0; t < STEPS; t++) {                                                                      \
      MARK;                                                                                                \
      double damp = 1e-4 * e;                                                                              \
      SOURCE_BEGIN                                                                                         \
      _Pragma("omp parallel for schedule(static)")                                                         \
      for (int i = 1; i < N - 1; i++)                                                                      \
        v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) + SOURCE(i) - damp * u[i];                     \
      SOURCE_END                                                                                           \
      double *w = u;                                                                                       \
      u = v, v = w;                                                                                        \
      e = 0;                                                                                               \
      _Pragma("omp parallel for schedule(static) reduction(+ : e)")                                        \
      for (int i = 0; i < N; i++) e += u[i] * u[i];                                                        \
    }                                                                                                      \
    double J = e;                                                                                          \
    for (int i = 0; i < N; i++) J += (i % 7) * u[i];                                                       \
    free(u), free(v);                                                                                      \
    return J;                                                                                              \
  }
HEAT(heat_checkpointed, __parad_checkpoint_loop())
HEAT(heat_taped, (void)0)

static double u_at[N];
static double along(void *ctx, double x) {
  (void)ctx;
  double keep = u_at[5];
  u_at[5] = x;
  double J = heat_checkpointed(u_at, 0.2);
  u_at[5] = keep;
  return J;
}

int main(void) {
  double u0[N], want[N] = {0};
  for (int i = 0; i < N; i++) u_at[i] = u0[i] = 0.5 + sin(0.05 * i);
  double dk_want = __parad_autodiff((void *)heat_taped, u0, want, 0.2), largest = fabs(dk_want);
  for (int i = 0; i < N; i++) largest = fmax(largest, fabs(want[i]));
  CHECK_CLOSE(heat_checkpointed(u0, 0.2), heat_taped(u0, 0.2), 1e-12);
  const size_t budgets[] = {0, 2u << 20};
  for (int b = 0; b < 2; b++) {
    parad_set_tape_limit(budgets[b]);
    double g[N] = {0};
    double dk = __parad_autodiff((void *)heat_checkpointed, u0, g, 0.2);
    for (int i = 0; i < N; i++) CHECK_CLOSE(g[i] / largest, want[i] / largest, 1e-12);
    CHECK_CLOSE(dk / largest, dk_want / largest, 1e-12);
  }
  parad_set_tape_limit(0);
  CHECK_CLOSE(want[5], fd_central(along, NULL, u0[5], 1e-5), 1e-6);
  return check_done();
}
