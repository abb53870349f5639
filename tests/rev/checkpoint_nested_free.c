// Nested checkpointed loops whose steps free heap arrays the function allocated before the loops (two
// large, one of three doubles), on a return from inside them (once refused: "a checkpointed loop that runs another checkpointed loop and
// allocates memory or moves pointers of its variables in its steps"; the fuzzers' largest refusal class).
// The outer loop's steps run as the program runs them; their frees wait while a loop's reverse sweep is
// to come (the reverse sweep recomputes the step that freed the arrays from a snapshot and reads them),
// and the arrays' shadows go once the step's augmented run frees them again, with the tape of the code
// around the outer loop, whose reverse sweep still writes them (the small array's shadow, which the
// runtime does not keep for reuse, went with the outer step's tape once: fuzz seed 20056).
//   inner: the return, with its frees, inside the inner loop, at inner step 5 of outer step `stop`;
//   outer: the inner loop in a helper that says it stopped; the outer step frees through a helper and
//          returns;
// each with stop = 0 (the first outer step returns), 6 (mid-way) and E (no return: the frees after the
// loops). Against the same functions without the markers (taped): the result and the gradient equal to
// 1e-12 relative to the largest component, with no tape budget and with 4 MB (the inner loops then recompute
// their steps from fewer snapshots); every run recomputes the step that freed the arrays, from a snapshot
// taken before it; against central differences (h = 1e-6, 1e-6); forward
// mode through both loops against the gradient along a direction (1e-10). Valgrind-clean (the arrays
// and their shadows freed once).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void __parad_checkpoint_loop(void);

enum { N = 2048, E = 10, T = 12 };

static int stop; /* the outer step that returns from inside the inner loop (E: none) */

__attribute__((noinline)) static void release(double *a, double *b, double *c) {
  free(a);
  free(b);
  free(c);
}

#define INNER(NAME, MARK_OUTER, MARK_INNER)                                                                 \
  double NAME(const double *x) {                                                                           \
    double *u = malloc(N * sizeof *u), *w = malloc(N * sizeof *w), *k = malloc(3 * sizeof *k), s = 0;      \
    for (int i = 0; i < N; i++) u[i] = x[i], w[i] = 0.5 + 0.1 * x[i];                                       \
    for (int j = 0; j < 3; j++) k[j] = x[7 * j] * x[j + 1];                                                 \
    for (int e = 0; e < E; e++) {                                                                          \
      MARK_OUTER;                                                                                          \
      for (int t = 0; t < T; t++) {                                                                        \
        MARK_INNER;                                                                                        \
        double h = 0.05 * k[t % 3]; /* a local of the step: the return stays in the inner step */          \
        for (int i = 0; i < N; i++) u[i] += h * sin(u[(i + 1) % N] * w[i]);                                \
        if (e == stop && t == 5) {                                                                         \
          double r = s + u[0] * u[1];                                                                      \
          free(u);                                                                                         \
          free(w);                                                                                         \
          free(k);                                                                                         \
          return r;                                                                                        \
        }                                                                                                  \
      }                                                                                                    \
      s += u[e % N] * w[e % N] * k[e % 3];                                                                 \
      for (int i = 0; i < N; i++) w[i] = 0.99 * w[i] + 0.01 * u[i];                                        \
    }                                                                                                      \
    double r = s + u[0];                                                                                   \
    free(u);                                                                                               \
    free(w);                                                                                               \
    free(k);                                                                                               \
    return r;                                                                                              \
  }
INNER(inner_checkpointed, __parad_checkpoint_loop(), __parad_checkpoint_loop())
INNER(inner_taped, (void)0, (void)0)

#define RELAX(NAME, MARK)                                                                                   \
  __attribute__((noinline)) static int NAME(double *u, const double *w, int e) {                           \
    for (int t = 0; t < T; t++) {                                                                          \
      MARK;                                                                                                \
      for (int i = 0; i < N; i++) u[i] += 0.05 * sin(u[(i + 1) % N] * w[i]);                               \
      if (e == stop && t == 5) return 1;                                                                   \
    }                                                                                                      \
    return 0;                                                                                              \
  }
RELAX(relax_checkpointed, __parad_checkpoint_loop())
RELAX(relax_taped, (void)0)

#define OUTER(NAME, MARK, RELAX)                                                                            \
  double NAME(const double *x) {                                                                           \
    double *u = malloc(N * sizeof *u), *w = malloc(N * sizeof *w), *k = malloc(3 * sizeof *k), s = 0;      \
    for (int i = 0; i < N; i++) u[i] = x[i], w[i] = 0.5 + 0.1 * x[i];                                       \
    for (int j = 0; j < 3; j++) k[j] = x[7 * j] * x[j + 1];                                                 \
    for (int e = 0; e < E; e++) {                                                                          \
      MARK;                                                                                                \
      if (RELAX(u, w, e)) {                                                                                \
        double r = s + u[0] * u[1];                                                                        \
        release(u, w, k);                                                                                     \
        return r;                                                                                          \
      }                                                                                                    \
      s += u[e % N] * w[e % N] * k[e % 3];                                                                 \
      for (int i = 0; i < N; i++) w[i] = 0.99 * w[i] + 0.01 * u[i];                                        \
    }                                                                                                      \
    double r = s + u[0];                                                                                   \
    release(u, w, k);                                                                                         \
    return r;                                                                                              \
  }
OUTER(outer_checkpointed, __parad_checkpoint_loop(), relax_checkpointed)
OUTER(outer_taped, (void)0, relax_taped)

#define CHECK_FREES(checkpointed, taped)                                                                    \
  do {                                                                                                      \
    double x[N], want[N] = {0}, v[N], largest = 0;                                                        \
    for (int i = 0; i < N; i++) x[i] = 0.5 + 0.4 * sin(0.9 * i), v[i] = cos(1.0 + 2 * i);                 \
    __parad_autodiff((void *)taped, x, want);                                                             \
    for (int i = 0; i < N; i++) largest = fmax(largest, fabs(want[i]));                                   \
    CHECK_CLOSE(checkpointed(x), taped(x), 1e-12);                                                        \
    /* an outer snapshot (the arrays, s) is 32 KB, an inner step's tape 128 to 256 KB */                  \
    const size_t budgets[] = {0, 4u << 20};                                                               \
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
      if (i % 700 == 0) CHECK_CLOSE(want[i], fd_component(checkpointed, x, N, i, 1e-6), 1e-6);              \
    }                                                                                                     \
    CHECK_CLOSE(__parad_fwddiff((void *)checkpointed, x, v), dot, 1e-10);                                 \
  } while (0)

int main(void) {
  const int stops[] = {0, 6, E};
  for (int k = 0; k < 3; k++) {
    stop = stops[k];
    CHECK_FREES(inner_checkpointed, inner_taped);
    CHECK_FREES(outer_checkpointed, outer_taped);
  }
  return check_done();
}
