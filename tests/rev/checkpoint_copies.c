// Checkpointed loops whose steps move floats with memcpy/memmove between pointers the loop keeps in its
// variables. In the step's function those pointers are loaded from the block of the loop's variables,
// so what the copy moves is told by what the function calling the loop stores in them and reads through
// them (refused before: "cannot tell what this copy moves"): (1) a step that only restores part of a
// calloc'd block from the input; (2) the previous state saved with memcpy before an update done by a
// helper; (3) a history buffer shifted with memmove; (4) the same with floats (the adjoint adds floats
// of 4 bytes). Each gradient against forward mode along each unit direction (1e-10) and central
// differences (h 1e-6, 1e-6); against the same function without the marker (taped step by step, 1e-12).
// At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void __parad_checkpoint_loop(void);

enum { N = 6, STEPS = 40, HIST = 4 };

#define RESTORING(NAME, MARK)                                                                               \
  double NAME(const double *x) { /* the step is only the copy */                                         \
    double *h = calloc(N + 2, sizeof *h);                                                                \
    for (int q = 0; q < 4; q++) h[q] = 0.3;                                                              \
    h[0] -= sin(x[1]);                                                                                   \
    for (int t = 0; t < STEPS; t++) {                                                                    \
      MARK;                                                                                              \
      memcpy(h, x, 3 * sizeof(double));                                                                  \
    }                                                                                                    \
    double J = 0;                                                                                        \
    for (int i = 0; i < N + 2; i++) J += h[i] * h[i] * (i + 1) + h[i] * x[i % N];                        \
    free(h);                                                                                             \
    return J;                                                                                            \
  }
RESTORING(restoring_checkpointed, __parad_checkpoint_loop())
RESTORING(restoring_taped, (void)0)

__attribute__((noinline)) static void relax(double *u, const double *old, int n) {
  for (int i = 1; i < n - 1; i++) u[i] = old[i] + 0.1 * sin(old[i - 1] - 2 * old[i] + old[i + 1]);
}

#define SAVING(NAME, MARK)                                                                                  \
  double NAME(const double *x) { /* the previous state saved, the update in a helper */                 \
    double *u = malloc(N * sizeof *u), *old = malloc(N * sizeof *old);                                   \
    memcpy(u, x, N * sizeof *u);                                                                         \
    for (int t = 0; t < STEPS; t++) {                                                                    \
      MARK;                                                                                              \
      memcpy(old, u, N * sizeof *u);                                                                     \
      relax(u, old, N);                                                                                  \
    }                                                                                                    \
    double J = 0;                                                                                        \
    for (int i = 0; i < N; i++) J += u[i] * u[i] * (i + 1);                                              \
    free(u), free(old);                                                                                  \
    return J;                                                                                            \
  }
SAVING(saving_checkpointed, __parad_checkpoint_loop())
SAVING(saving_taped, (void)0)

#define FILTERING(NAME, MARK, T)                                                                            \
  double NAME(const double *x) { /* a filter over a history the step shifts with memmove */             \
    T *hist = malloc(HIST * sizeof *hist);                                                               \
    for (int k = 0; k < HIST; k++) hist[k] = (T)x[k];                                                    \
    T y = 0;                                                                                             \
    for (int t = 0; t < STEPS; t++) {                                                                    \
      MARK;                                                                                              \
      memmove(hist + 1, hist, (HIST - 1) * sizeof *hist);                                                \
      hist[0] = (T)(0.5 * tanh(hist[1]) + 0.3 * hist[2] - 0.2 * hist[3] + 0.05 * x[t % N]);             \
      y += hist[0] * hist[0];                                                                            \
    }                                                                                                    \
    free(hist);                                                                                          \
    return y;                                                                                            \
  }
FILTERING(filtering_checkpointed, __parad_checkpoint_loop(), double)
FILTERING(filtering_taped, (void)0, double)
FILTERING(filtering32_checkpointed, __parad_checkpoint_loop(), float)
FILTERING(filtering32_taped, (void)0, float)

/* The checkpointed gradient against the taped one (tol). */
static void against_taped(array_fn checkpointed, array_fn taped, const double *x, double tol) {
  double want[N] = {0}, got[N] = {0};
  __parad_autodiff((void *)taped, x, want);
  __parad_autodiff((void *)checkpointed, x, got);
  for (int i = 0; i < N; i++) CHECK_CLOSE(got[i], want[i], tol);
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.2 * cos(i + 1.0);
  CHECK_GRADIENT(restoring_checkpointed, x, N, 1e-10, 1e-6, 1e-6);
  CHECK_GRADIENT(saving_checkpointed, x, N, 1e-10, 1e-6, 1e-6);
  CHECK_GRADIENT(filtering_checkpointed, x, N, 1e-10, 1e-6, 1e-6);
  against_taped(restoring_checkpointed, restoring_taped, x, 1e-12);
  against_taped(saving_checkpointed, saving_taped, x, 1e-12);
  against_taped(filtering_checkpointed, filtering_taped, x, 1e-12);
  /* floats: rounding of 6e-8 relative, so differences of h 1e-3 within 1e-3 */
  CHECK_GRADIENT(filtering32_checkpointed, x, N, 1e-5, 1e-3, 1e-3);
  against_taped(filtering32_checkpointed, filtering32_taped, x, 1e-6);
  return check_done();
}
