// Nested checkpointed loops: an outer loop of E epochs whose step runs an inner checkpointed time loop of
// T steps (a 1-D heat equation with a nonlinear source on a local array) and then updates the epoch's
// parameters from the result; the inner loop once in the same function, once in a helper the outer step
// calls (with its arrays on the heap, which the outer step swaps: their shadows follow the pointers). Against the same functions without the markers (taped step by
// step): the result and the gradient equal to 1e-12 relative to the largest component, with no budget and
// budgets from a few snapshots of the outer loop down to the least that leaves the inner loop one of its
// own; the outer loop's runs per step against those of one loop (budget-free, the outer loop snapshots
// every step and recomputes each once); against central differences (h = 1e-6, 1e-6); forward mode
// through both loops against the gradient along a direction (1e-10).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void parad_checkpoint_counts(long *steps, long *runs);
void __parad_checkpoint_loop(void);

enum { N = 16, E = 12, T = 60 };

static double heat_step(double *u, double *un, double k, int i) {
  un[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.02 * sin(u[i]);
  return un[i];
}

#define SAME_FUNCTION(NAME, MARK_OUTER, MARK_INNER)                                                          \
  double NAME(const double *x) {                                                                           \
    double u[N + 2], un[N + 2], k = 0.2, s = 0;                                                            \
    u[0] = u[N + 1] = un[0] = un[N + 1] = 0;                                                               \
    for (int i = 1; i <= N; i++) u[i] = x[i - 1];                                                          \
    for (int e = 0; e < E; e++) {                                                                          \
      MARK_OUTER;                                                                                          \
      for (int t = 0; t < T; t++) {                                                                        \
        MARK_INNER;                                                                                        \
        for (int i = 1; i <= N; i++) heat_step(u, un, k, i);                                               \
        for (int i = 1; i <= N; i++) u[i] = un[i];                                                         \
      }                                                                                                    \
      double m = 0;                                                                                        \
      for (int i = 1; i <= N; i++) m += u[i] * u[i];                                                       \
      k = 0.1 + 0.1 / (1 + m);                                                                             \
      s += m * (e + 1);                                                                                    \
      for (int i = 1; i <= N; i++) u[i] += 0.05 * x[i - 1];                                                \
    }                                                                                                      \
    return s;                                                                                              \
  }
SAME_FUNCTION(same_checkpointed, __parad_checkpoint_loop(), __parad_checkpoint_loop())
SAME_FUNCTION(same_outer_only, __parad_checkpoint_loop(), (void)0)
SAME_FUNCTION(same_taped, (void)0, (void)0)

#define RELAX(NAME, MARK)                                                                                   \
  __attribute__((noinline)) static double NAME(double *u, double *un, double k, int steps) {               \
    for (int t = 0; t < steps; t++) {                                                                      \
      MARK;                                                                                                \
      for (int i = 1; i <= N; i++) heat_step(u, un, k, i);                                                 \
      for (int i = 1; i <= N; i++) u[i] = un[i];                                                           \
    }                                                                                                      \
    double m = 0;                                                                                          \
    for (int i = 1; i <= N; i++) m += u[i] * u[i];                                                         \
    return m;                                                                                              \
  }
RELAX(relax_checkpointed, __parad_checkpoint_loop())
RELAX(relax_taped, (void)0)

#define THROUGH_CALL(NAME, MARK, RELAX)                                                                     \
  double NAME(const double *x) {                                                                           \
    double *u = calloc(N + 2, sizeof(double)), *un = calloc(N + 2, sizeof(double)), k = 0.2, s = 0;        \
    for (int i = 1; i <= N; i++) u[i] = x[i - 1];                                                          \
    for (int e = 0; e < E; e++) {                                                                          \
      MARK;                                                                                                \
      double m = RELAX(u, un, k, T + e);                                                                   \
      k = 0.1 + 0.1 / (1 + m);                                                                             \
      s += m * (e + 1) + u[1 + e % N];                                                                     \
      for (int i = 1; i <= N; i++) un[i] = u[i] + 0.01 * u[N + 1 - i];                                      \
      double *w = u;                                                                                       \
      u = un, un = w;                                                                                      \
    }                                                                                                      \
    free(u);                                                                                               \
    free(un);                                                                                              \
    return s;                                                                                              \
  }
THROUGH_CALL(call_checkpointed, __parad_checkpoint_loop(), relax_checkpointed)
THROUGH_CALL(call_taped, (void)0, relax_taped)

#define CHECK_NESTED(checkpointed, taped)                                                                   \
  do {                                                                                                      \
    double x[N], want[N] = {0}, v[N], largest = 0;                                                        \
    for (int i = 0; i < N; i++) x[i] = 0.5 + 0.4 * sin(0.9 * i), v[i] = cos(1.0 + 2 * i);                 \
    __parad_autodiff((void *)taped, x, want);                                                             \
    for (int i = 0; i < N; i++) largest = fmax(largest, fabs(want[i]));                                   \
    CHECK_CLOSE(checkpointed(x), taped(x), 1e-12);                                                        \
    /* the outer loop's snapshot (the arrays, k, s) is about 400 bytes, an inner step's tape 64 KB */     \
    const size_t budgets[] = {0, 4u << 20, 1u << 20, 600u << 10};                                         \
    for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {                                     \
      parad_set_tape_limit(budgets[b]);                                                                   \
      double dx[N] = {0};                                                                                 \
      __parad_autodiff((void *)checkpointed, x, dx);                                                      \
      for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i] / largest, want[i] / largest, 1e-12);                 \
    }                                                                                                     \
    parad_set_tape_limit(0);                                                                              \
    double dot = 0;                                                                                       \
    for (int i = 0; i < N; i++) {                                                                         \
      dot += want[i] * v[i];                                                                              \
      if (i % 5 == 0) CHECK_CLOSE(want[i], fd_component(checkpointed, x, N, i, 1e-6), 1e-6);              \
    }                                                                                                     \
    CHECK_CLOSE(__parad_fwddiff((void *)checkpointed, x, v), dot, 1e-10);                                 \
  } while (0)

int main(void) {
  CHECK_NESTED(same_checkpointed, same_taped);
  CHECK_NESTED(same_outer_only, same_taped);
  CHECK_NESTED(call_checkpointed, call_taped);
  return check_done();
}
