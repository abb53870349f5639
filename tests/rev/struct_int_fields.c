// Integer fields inside an active struct in reverse mode: a counter incremented in place, a bool flag, a
// short, an index array of longs read back, next to double fields that are read, updated and written;
// the ints must stay integers (no adjoint), at -O0 (types from the address computations) and -O2 (from
// the type-based alias tags). The double fields' shadows carry seeds for the values written (so the
// gradient is of result + seed . fields). Analytic gradient (tolerance 1e-12, rounding only) and forward
// tangents along each unit direction of (value, slope, x) (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdbool.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
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
  s->value = s->value * x + x * x * s->evaluations;
  s->slope = 2 * x * s->slope;
  s->converged = s->value < 10;
  s->last = (short)(s->last + 2);
  s->steps[s->evaluations % 3] += s->last;
  return s->value + s->slope * s->steps[1] + (s->converged ? s->value : 0);
}

static void init(State *s) {
  memset(s, 0, sizeof *s);
  s->evaluations = 2, s->last = 5, s->value = 0.75, s->slope = -1.5;
  s->steps[0] = s->steps[1] = s->steps[2] = 1;
}

int main(void) {
  const double xs[2] = {1.5, 3.2}; /* converged and not */
  for (int p = 0; p < 2; p++) {
    double x = xs[p], sv = 0.25, ss = -0.5; /* seeds for value and slope */
    State s, ds;
    init(&s);
    memset(&ds, 0, sizeof ds);
    ds.value = sv, ds.slope = ss;
    double dx = __parad_autodiff((void *)evaluate, &s, &ds, x);
    /* evaluations = 3, last = 7, steps = {8, 1, 1}; value = v0 x + 3 x^2, slope = 2 x s0 */
    double v = 0.75 * x + 3 * x * x, c = v < 10;
    CHECK_CLOSE(s.evaluations, 3, 0);
    CHECK_CLOSE(s.steps[0], 8, 0);
    CHECK_CLOSE(s.converged, c, 0);
    double wv = 1 + c + sv, ws = 1 + ss; /* weights of value and slope in result + seeds */
    CHECK_CLOSE(ds.value, wv * x, 1e-12);
    CHECK_CLOSE(ds.slope, ws * 2 * x, 1e-12);
    CHECK_CLOSE(dx, wv * (0.75 + 6 * x) + ws * 2 * -1.5, 1e-12);
    CHECK_CLOSE(ds.evaluations + ds.last + ds.steps[0] + ds.converged, 0, 0);
    for (int k = 0; k < 3; k++) {
      State s2, ds2;
      init(&s2);
      memset(&ds2, 0, sizeof ds2);
      ds2.value = k == 0, ds2.slope = k == 1;
      double t = __parad_fwddiff((void *)evaluate, &s2, &ds2, x, (double)(k == 2));
      t += sv * ds2.value + ss * ds2.slope;
      CHECK_CLOSE(k == 0 ? ds.value : k == 1 ? ds.slope : dx, t, 1e-12);
    }
  }
  return check_done();
}
