// A checkpointed time loop (Inputs/checkpointed/solver.c) whose step is in a third file (step.c), and the
// gradient asked for here: the file with the loop has no request of its own, and its loop's step calls a
// function it cannot see. Both wait for the link, where the whole program is: once refused at the loop's
// compilation ("a call of 'step', whose body Parad cannot see"). Compiled file by file and linked, and in
// one command at -O0. Against central differences (h = 1e-6, 1e-6) and the runs per step against a
// checkpointed loop's (two: the forward sweep's and the reverse sweep's), so that the loop is checkpointed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc %cflags -I%S/Inputs/checkpointed -c %s -o %t/main.o
// RUN: %parad-cc %cflags -c %S/Inputs/checkpointed/solver.c -o %t/solver.o
// RUN: %parad-cc %cflags -c %S/Inputs/checkpointed/step.c -o %t/step.o
// RUN: %parad-cc %t/main.o %t/solver.o %t/step.o -o %t/prog -lm && %t/prog
// RUN: %parad-cc -O0 -I%S/../include -I%S/Inputs/checkpointed %s %S/Inputs/checkpointed/solver.c %S/Inputs/checkpointed/step.c -o %t/prog0 -lm && %t/prog0
#include "check.h"
#include "solver.h"

void __parad_autodiff(void *, ...);
void parad_checkpoint_counts(long *steps, long *runs);

enum { N = 16, STEPS = 40 };

static double solve_n(const double *x) { return solve(x, N, STEPS); }

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.05 * sin(i);
  __parad_autodiff((void *)solve, x, dx, parad_const, N, parad_const, STEPS);
  long steps = 0, runs = 0;
  parad_checkpoint_counts(&steps, &runs);
  CHECK_CLOSE((double)steps, STEPS + 1, 0); /* the test that leaves counts as a step */
  CHECK_CLOSE((double)runs, 2.0 * steps, 0);
  for (int i = 0; i < N; i += 3) CHECK_CLOSE(dx[i], fd_component(solve_n, x, N, i, 1e-6), 1e-6);
  return check_done();
}
