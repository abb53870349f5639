// A checkpointed time loop whose steps run OpenMP tasks: each step a 1-D heat update of a grid (swapped
// arrays) with a nonlinear source, cut into chunks, one task per chunk created by one thread of a region
// (firstprivate chunk number, the grids shared), then a task loop adding a damping term in place, and a
// chain of two dependent tasks computing the grid's energy for the next step, and each chunk's task adding
// the chunk's mean into a sum inside a critical section, through a helper:
//   v = u + k lap(u) + 0.01 sin(u); v -= 1e-4 E v; E = sum v^2 (then u, v swapped); a += 1e-3 mean(u).
// Against the same function without the marker (taped step by step, each task as Parad's reverse mode
// does it): the result and the gradient with respect to the initial grid and k equal (1e-12 relative to
// the largest component), with no budget and a budget of a few snapshots, at 1, 2 and 4 threads at -O2
// and 3 at -O0; one component against central differences (1e-6).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { N = 400, STEPS = 150, CHUNK = 50 };

/* a chunk's mean, added into a shared sum inside a critical section (a step's noting copy of it asks for
   the thread number and notes its reads: once taken for a section that overwrites, at 2 threads) */
static double chunk_mean(const double *u, int c) {
  double s = 0;
  for (int i = c * CHUNK; i < (c + 1) * CHUNK; i++) s += u[i];
  return s / CHUNK;
}

#define HEAT(NAME, MARK)                                                                                    \
  double NAME(const double *u0, double k) {                                                               \
    double *u = malloc(sizeof(double) * N), *v = malloc(sizeof(double) * N), e = 0, acc = 0;               \
    for (int i = 0; i < N; i++) u[i] = v[i] = u0[i];                                                       \
    for (int t = 0; t < STEPS; t++) {                                                                      \
      MARK;                                                                                                \
      double damp = 1e-4 * e, part[2] = {0, 0};                                                            \
      _Pragma("omp parallel")                                                                              \
      _Pragma("omp single")                                                                                \
      {                                                                                                    \
        for (int c = 0; c < N / CHUNK; c++) {                                                              \
          _Pragma("omp task firstprivate(c) shared(u, v, k, acc)")                                         \
          {                                                                                                \
            for (int i = c * CHUNK; i < (c + 1) * CHUNK; i++)                                              \
              if (i > 0 && i < N - 1) v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * sin(u[i]); \
            _Pragma("omp critical")                                                                        \
            acc += 1e-3 * chunk_mean(u, c);                                                                \
          }                                                                                                \
        }                                                                                                  \
        _Pragma("omp taskwait")                                                                            \
        _Pragma("omp taskloop grainsize(64) shared(v, damp)")                                              \
        for (int i = 1; i < N - 1; i++) v[i] -= damp * v[i];                                               \
        _Pragma("omp task depend(out : part[0]) shared(v, part)")                                          \
        for (int i = 0; i < N / 2; i++) part[0] += v[i] * v[i];                                            \
        _Pragma("omp task depend(in : part[0]) depend(out : part[1]) shared(v, part)")                     \
        {                                                                                                  \
          part[1] = part[0];                                                                               \
          for (int i = N / 2; i < N; i++) part[1] += v[i] * v[i];                                          \
        }                                                                                                  \
      }                                                                                                    \
      e = part[1];                                                                                         \
      double *w = u;                                                                                       \
      u = v, v = w;                                                                                        \
    }                                                                                                      \
    double J = e + acc;                                                                                    \
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
