// A checkpointed loop that copies records by assignment through a local (`struct S t = st[i - 1]; ...;
// st[i] = t;`), the records mixing doubles, an int and a float (with padding). The optimiser keeps the local
// in memory, which makes it a variable of the step, and copies the int with its padding, and the padding
// after the float, as integers: nothing in the step said what its parameter points to (the runners pass it
// from a block), and the copy was refused ("cannot tell whether this integer store of active memory carries
// floating-point data", fuzz serial seed 96). The step now names the loop function whose parameters it
// has, which its program calls with the variables themselves.
//   st_i = {x_i, i mod 3, x_i^2, x_i / 2}; per step i = 1..N-1: t = st_{i-1}, t.c *= 1/2, t.b += 0.01 t.a x_i,
//   st_i = t; f = sum_i st_i.a st_i.b + st_i.k x_i (+ a constant from the floats' signs: a float's rounding
//   would swamp the finite differences, and the floats are here to be copied)
// Against the same function without the marker (1e-12), with no budget and with one that recomputes steps;
// against central differences along three components (1e-6). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void parad_set_tape_limit(size_t bytes);
void parad_checkpoint_counts(long *steps, long *runs);
void __parad_checkpoint_loop(void);

enum { N = 100 };
struct S {
  double a;
  int k;
  double b;
  float c;
};

#define RECORDS(NAME, MARK)                                                                                 \
  static double NAME(const double *x) {                                                                    \
    struct S *st = malloc(N * sizeof *st);                                                                 \
    for (int i = 0; i < N; i++) st[i].a = x[i], st[i].k = i % 3, st[i].b = x[i] * x[i], st[i].c = (float)(x[i] / 2); \
    for (int i = 1; i < N; i++) {                                                                          \
      MARK;                                                                                                \
      struct S t = st[i - 1];                                                                              \
      t.c *= 0.5f;                                                                                         \
      t.b += 0.01 * t.a * x[i % N];                                                                        \
      st[i] = t;                                                                                           \
    }                                                                                                      \
    double s = 0;                                                                                          \
    for (int i = 0; i < N; i++) s += st[i].a * st[i].b + st[i].k * x[i] + (st[i].c > 0);                   \
    free(st);                                                                                              \
    return s;                                                                                              \
  }
RECORDS(taped, (void)0)
RECORDS(checkpointed, __parad_checkpoint_loop())

int main(void) {
  double x[N], want[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.4 + 0.5 * sin(0.37 * i);
  __parad_autodiff((void *)taped, x, want);
  for (int budget = 0; budget < 2; budget++) {
    parad_set_tape_limit(budget ? 300 * 1024 : 0);
    double g[N] = {0};
    __parad_autodiff((void *)checkpointed, x, g);
    for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], want[j], 1e-12);
    long steps, runs;
    parad_checkpoint_counts(&steps, &runs);
    if (budget) CHECK_CLOSE((double)(runs > 2 * steps), 1, 0); /* steps were recomputed */
  }
  parad_set_tape_limit(0);
  for (int j = 0; j < 3; j++) CHECK_CLOSE(want[j], fd_component(checkpointed, x, N, j, 1e-6), 1e-6);
  return check_done();
}
