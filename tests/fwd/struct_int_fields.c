// Integer fields inside active structs are integers, not float bits: a counter incremented in place, a
// flag set, an index read back, at -O0 (types from the address computation) and -O2 (types from the
// type-based alias tags). Analytic tangents (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdbool.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

typedef struct {
  int evaluations;
  bool converged;
  short last;
  double value, slope;
  long steps[3];
} State;

__attribute__((noinline)) static double evaluate(State *s, double x) {
  s->evaluations = s->evaluations + 1;
  s->value = x * x * s->evaluations;
  s->slope = 2 * x;
  s->converged = s->value < 10;
  s->last = (short)(s->last + 2);
  s->steps[s->evaluations % 3] += s->last;
  return s->value + s->slope * s->steps[1];
}

int main(void) {
  State s = {2, false, 5, 0, 0, {1, 1, 1}}, ds = {0, false, 0, 0, 0, {0, 0, 0}};
  double x = 1.5;
  double d = __parad_fwddiff((void *)evaluate, &s, &ds, x, 1.0);
  /* evaluations = 3, last = 7, steps[0] += 7; value = 3 x^2, slope = 2x, steps[1] = 1 */
  CHECK_CLOSE(d, 6 * x + 2 * 1, 1e-12);
  CHECK_CLOSE(ds.value, 6 * x, 1e-12);
  CHECK_CLOSE(ds.slope, 2, 1e-12);
  CHECK_CLOSE(s.evaluations, 3, 0);
  CHECK_CLOSE(s.steps[0], 8, 0);
  return check_done();
}
