// A checkpointed loop that runs again before its first run's reverse sweep: inside a loop that is not
// checkpointed, and in a helper called twice. Each run must snapshot the memory its steps write (here a
// heap array reached through a parameter) and the memory they only read (a coefficient array the caller
// changes between the runs) afresh; the first runs' hulls once made later runs snapshot nothing, so they
// were reversed from the memory as the program left it (fuzz seed 1177). Against the same functions
// without the marker (taped): the result and the gradient to 1e-12 relative to the largest component,
// with no budget and a budget that keeps a few snapshots; against central differences (h = 1e-6, 1e-6).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { N = 8, OUTER = 3, STEPS = 20 };

/* u relaxes in place under coefficients c it only reads */
#define RELAX(NAME, MARK)                                                                                   \
  __attribute__((noinline)) static void NAME(double *u, const double *c, int steps) {                      \
    for (int t = 0; t < steps; t++) {                                                                      \
      MARK;                                                                                                \
      for (int i = 1; i < N - 1; i++) u[i] = u[i] + c[i] * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.05 * sin(u[i]); \
    }                                                                                                      \
  }
RELAX(relax_checkpointed, __parad_checkpoint_loop())
RELAX(relax_taped, (void)0)

/* the loop inside a loop that is not checkpointed; the coefficients change between its runs */
#define IN_LOOP(NAME, RELAX)                                                                                \
  double NAME(double *x) {                                                                                 \
    double *u = malloc(N * sizeof *u), *c = malloc(N * sizeof *c), s = 0;                                  \
    memcpy(u, x, N * sizeof *u);                                                                           \
    for (int e = 0; e < OUTER; e++) {                                                                      \
      for (int i = 0; i < N; i++) c[i] = 0.1 + 0.05 * (e + 1) * x[(i + e) % N] * x[(i + e) % N];          \
      RELAX(u, c, STEPS + e);                                                                              \
      s += u[e + 1] * u[N - 2 - e];                                                                        \
    }                                                                                                      \
    for (int i = 0; i < N; i++) s += u[i] * u[i];                                                          \
    free(u);                                                                                               \
    free(c);                                                                                               \
    return s;                                                                                              \
  }
IN_LOOP(in_loop_checkpointed, relax_checkpointed)
IN_LOOP(in_loop_taped, relax_taped)

/* the helper called twice in a row; the first element overwritten from itself through an alias */
#define TWICE(NAME, RELAX, MARK)                                                                            \
  double NAME(double *x) {                                                                                 \
    double c[N];                                                                                           \
    for (int i = 0; i < N; i++) c[i] = 0.2;                                                                \
    RELAX(x, c, STEPS);                                                                                    \
    c[3] = 0.3 * x[2];                                                                                     \
    RELAX(x, c, STEPS / 2);                                                                                \
    const double *p = x;                                                                                   \
    for (int j = 0; j < 3; j++)                                                                            \
      for (int k = 0; k < 2; k++) {                                                                        \
        MARK;                                                                                              \
        x[0] = p[0] / (1.0 + p[0] * p[0]) + 0.1 * p[k + 1];                                                \
      }                                                                                                    \
    double s = 0;                                                                                          \
    for (int i = 0; i < N; i++) s += (i + 1) * x[i] * x[i];                                                \
    return s;                                                                                              \
  }
TWICE(twice_checkpointed, relax_checkpointed, __parad_checkpoint_loop())
TWICE(twice_taped, relax_taped, (void)0)

/* f may overwrite its input: every call gets a fresh copy */
typedef double (*Fn)(double *);
static double call_copy(Fn f, const double *x) {
  double y[N];
  memcpy(y, x, sizeof y);
  return f(y);
}
static Fn fd_target;
static double fd_call(const double *x) { return call_copy(fd_target, x); }

#define CHECK_RERUN(checkpointed, taped)                                                                    \
  do {                                                                                                      \
    double x[N], want[N] = {0}, y[N], largest = 0;                                                        \
    for (int i = 0; i < N; i++) x[i] = 0.4 + 0.3 * sin(1.3 * i);                                          \
    memcpy(y, x, sizeof y);                                                                               \
    __parad_autodiff((void *)taped, y, want);                                                             \
    for (int i = 0; i < N; i++) largest = fmax(largest, fabs(want[i]));                                   \
    CHECK_CLOSE(call_copy(checkpointed, x), call_copy(taped, x), 1e-12);                                  \
    const size_t budgets[] = {0, 160u << 10};                                                               \
    for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {                                     \
      parad_set_tape_limit(budgets[b]);                                                                   \
      double dx[N] = {0};                                                                                 \
      memcpy(y, x, sizeof y);                                                                             \
      __parad_autodiff((void *)checkpointed, y, dx);                                                      \
      for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i] / largest, want[i] / largest, 1e-12);                 \
    }                                                                                                     \
    parad_set_tape_limit(0);                                                                              \
    fd_target = checkpointed;                                                                             \
    for (int i = 0; i < N; i++) CHECK_CLOSE(want[i], fd_component(fd_call, x, N, i, 1e-6), 1e-6);         \
  } while (0)

int main(void) {
  CHECK_RERUN(in_loop_checkpointed, in_loop_taped);
  CHECK_RERUN(twice_checkpointed, twice_taped);
  return check_done();
}
