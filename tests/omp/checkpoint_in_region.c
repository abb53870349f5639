// Checkpointed loops run by the threads of a parallel region, each on its own state: a loop over
// independent rows, each row relaxed by a checkpointed time loop, once in a local array of the region's
// body and once in the row's slice of a shared heap array (the steps store through a pointer; the notes'
// hulls must be each thread's own: shared, two threads at once corrupted each other's lists and crashed).
// Against the same functions without the marker (taped): the result and the gradient equal to 1e-12
// relative to the largest component, 5 gradients a run (a race shows now and then, not every time), with
// no budget and a budget of a few snapshots per loop, at 1, 2 and 4 threads at -O2 and 3 at -O0;
// three components against central differences (h = 1e-6, 1e-6). Under valgrind at 2 threads: the heap
// rows' block, freed by one thread after the region, must wait for the other thread's loops' reverse
// sweeps too (it was freed when the freeing thread's own were done, and read after).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: OMP_NUM_THREADS=2 valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { ROWS = 24, N = 12, STEPS = 15 };

#define RELAX(NAME, MARK)                                                                                   \
  __attribute__((noinline)) static void NAME(double *u, double k, int steps) {                             \
    for (int t = 0; t < steps; t++) {                                                                      \
      MARK;                                                                                                \
      for (int i = 1; i < N - 1; i++) u[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.05 * sin(u[i]); \
    }                                                                                                      \
  }
RELAX(relax_checkpointed, __parad_checkpoint_loop())
RELAX(relax_taped, (void)0)

/* each row in a local array of the region's body */
#define LOCAL_ROWS(NAME, RELAX)                                                                             \
  double NAME(const double *x) {                                                                               \
    double s = 0;                                                                                          \
    _Pragma("omp parallel for reduction(+ : s) schedule(static, 1)")                                       \
    for (int r = 0; r < ROWS; r++) {                                                                       \
      double u[N];                                                                                         \
      for (int i = 0; i < N; i++) u[i] = x[i] * (1 + 0.02 * r);                                            \
      RELAX(u, 0.1 + 0.005 * r, STEPS + r % 3);                                                            \
      for (int i = 0; i < N; i++) s += u[i] * u[i];                                                        \
    }                                                                                                      \
    return s;                                                                                              \
  }
LOCAL_ROWS(local_checkpointed, relax_checkpointed)
LOCAL_ROWS(local_taped, relax_taped)

/* each row in its slice of one heap array */
#define SHARED_ROWS(NAME, RELAX)                                                                            \
  double NAME(const double *x) {                                                                               \
    double *u = malloc(sizeof *u * ROWS * N), s = 0;                                                       \
    _Pragma("omp parallel for schedule(static, 1)")                                                        \
    for (int r = 0; r < ROWS; r++) {                                                                       \
      for (int i = 0; i < N; i++) u[r * N + i] = x[(i + r) % N] * x[i];                                    \
      RELAX(u + r * N, 0.12, STEPS);                                                                       \
    }                                                                                                      \
    for (int j = 0; j < ROWS * N; j++) s += u[j] * u[j] * (1 + j % 5);                                     \
    free(u);                                                                                               \
    return s;                                                                                              \
  }
SHARED_ROWS(shared_checkpointed, relax_checkpointed)
SHARED_ROWS(shared_taped, relax_taped)

#define CHECK_ROWS(checkpointed, taped)                                                                     \
  do {                                                                                                      \
    double x[N], want[N] = {0}, largest = 0;                                                              \
    for (int i = 0; i < N; i++) x[i] = 0.5 + 0.3 * sin(0.7 * i);                                          \
    __parad_autodiff((void *)taped, x, want);                                                             \
    for (int i = 0; i < N; i++) largest = fmax(largest, fabs(want[i]));                                   \
    CHECK_CLOSE(checkpointed(x), taped(x), 1e-12);                                                        \
    const size_t budgets[] = {0, 4u << 20};                                                               \
    for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {                                     \
      parad_set_tape_limit(budgets[b]);                                                                   \
      for (int run = 0; run < 5; run++) {                                                                 \
        double dx[N] = {0};                                                                               \
        __parad_autodiff((void *)checkpointed, x, dx);                                                    \
        for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i] / largest, want[i] / largest, 1e-12);               \
      }                                                                                                   \
    }                                                                                                     \
    parad_set_tape_limit(0);                                                                              \
    for (int i = 0; i < N; i += 5) CHECK_CLOSE(want[i], fd_component(checkpointed, x, N, i, 1e-6), 1e-6); \
  } while (0)

int main(void) {
  CHECK_ROWS(local_checkpointed, local_taped);
  CHECK_ROWS(shared_checkpointed, shared_taped);
  return check_done();
}
