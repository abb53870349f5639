// parad_adjoint_update_counts, declared in parad.h for every program, asked for by a program built without
// OpenMP (a benchmark harness shared by serial and parallel builds): the link failed, the counts living
// in the runtime's OpenMP part, which needs libomp. A serial gradient updates no shared memory: both
// counts 0; the gradient against the analytic one (1e-12).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
#include <parad.h>
#include "check.h"

double f(const double *x) { return x[0] * x[0] * x[1]; }

int main(void) {
  double x[2] = {1.5, -2}, g[2] = {0, 0};
  __parad_autodiff((void *)f, x, g);
  unsigned long long plain = 1, atomic = 1;
  parad_adjoint_update_counts(&plain, &atomic);
  CHECK_CLOSE((double)plain, 0, 0);
  CHECK_CLOSE((double)atomic, 0, 0);
  CHECK_CLOSE(g[0], 2 * x[0] * x[1], 1e-12);
  CHECK_CLOSE(g[1], x[0] * x[0], 1e-12);
  return check_done();
}
