// A checkpointed loop after a return that every call takes, which only the optimiser finds out
// (exp(tanh(0.75)) >= 1.5 folds once the optimiser runs): it deletes the loop, but the loop's sweeps were
// kept alive for their registration and asked derivatives of steps whose callers were gone, so the copy in
// the steps, of a block no one typed any more, was refused ("cannot tell what this copy moves": fuzz seed
// 21389). Sweeps of a loop with no call left go now. The same function with the return not taken builds
// and runs the loop. Against the analytic gradient (1e-12) and central differences (h = 1e-6, 1e-6), at
// -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
extern int parad_const;
void __parad_checkpoint_loop(void);

enum { N = 4 };
static double leave = 0.75; /* exp(tanh(leave - 1)) < 1.5: no early return */

#define EARLY(NAME, LEAVE)                                                                                  \
  double NAME(const double *x, const double *c) {                                                          \
    double *h = calloc(N, sizeof *h);                                                                      \
    if (exp(tanh(LEAVE)) >= 1.5) {                                                                         \
      double r = x[0] * x[1];                                                                              \
      free(h);                                                                                             \
      return r;                                                                                            \
    }                                                                                                      \
    for (int t = 0; t < N - 1; t++) {                                                                      \
      __parad_checkpoint_loop();                                                                           \
      memcpy(h, c, 2 * sizeof *h);                                                                         \
    }                                                                                                      \
    double r = h[0] * x[2] + sin(h[1] * x[0]);                                                             \
    free(h);                                                                                               \
    return r;                                                                                              \
  }
EARLY(always_returns, 0.75)     /* a constant: the optimiser deletes the loop */
EARLY(never_returns, leave - 1) /* a global's value: the loop stays, and runs */

static const double *C; /* the copies' source, a constant argument */

static double always(const double *x) { return always_returns(x, C); }
static double never(const double *x) { return never_returns(x, C); }

int main(void) {
  double x[N] = {0.3, 0.5, 0.7, 0.9}, c[N] = {5, 6, 7, 8};
  C = c;
  double g[N] = {0};
  __parad_autodiff((void *)always_returns, x, g, parad_const, c);
  CHECK_CLOSE(g[0], x[1], 1e-12);
  CHECK_CLOSE(g[1], x[0], 1e-12);
  CHECK_CLOSE(g[2], 0, 1e-12);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], fd_component(always, x, N, i, 1e-6), 1e-6);
  /* the copies leave h[0] = 5, h[1] = 6: r = 5 x2 + sin(6 x0) */
  double want[N] = {6 * cos(6 * x[0]), 0, 5, 0};
  double d[N] = {0};
  __parad_autodiff((void *)never_returns, x, d, parad_const, c);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(d[i], want[i], 1e-12);
    CHECK_CLOSE(d[i], fd_component(never, x, N, i, 1e-6), 1e-6);
  }
  return check_done();
}
