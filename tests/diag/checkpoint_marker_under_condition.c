// `if (checkpointed) __parad_checkpoint_loop();` reads as a switch at run time, and two probes wrote it so;
// the marker is read when compiling, and the loop was checkpointed whatever the condition, without a word.
// Now a warning says so where the marker is (the program still builds: the gradient is right either way,
// checked against central differences, h 1e-6, 1e-6, with the condition true and false). A marker first
// in the body gets none.
// RUN: %parad-cc %cflags %s -o %t -lm 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);

enum { N = 16, STEPS = 40 };

static double relax(const double *x, int checkpointed) {
  double u[N], s = 0;
  for (int i = 0; i < N; i++) u[i] = x[i];
  for (int t = 0; t < STEPS; t++) {
    // CHECK: checkpoint_marker_under_condition.c:[[@LINE+1]]:{{[0-9]+}}: warning: __parad_checkpoint_loop() under a condition checkpoints the loop whatever the condition (the marker is read when compiling): call it first in the loop's body, or leave it out (a tape limit, PARAD_TAPE_LIMIT, has a function's outermost loops checkpointed at run time where the tape would not fit) in function 'relax'
    if (checkpointed) __parad_checkpoint_loop();
    for (int i = 1; i < N - 1; i++) u[i] += 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * sin(u[i]);
  }
  for (int i = 0; i < N; i++) s += u[i] * u[i];
  return s;
}

static double marked_first(const double *x) {
  double u[N], s = 0;
  for (int i = 0; i < N; i++) u[i] = x[i];
  for (int t = 0; t < STEPS; t++) {
    __parad_checkpoint_loop();
    for (int i = 1; i < N - 1; i++) u[i] += 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * sin(u[i]);
  }
  for (int i = 0; i < N; i++) s += u[i] * u[i];
  return s;
}

double on(const double *x) { return relax(x, 1); }
double off(const double *x) { return relax(x, 0); }
double first(const double *x) { return marked_first(x); }

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.5 * sin(0.9 * i);
  double (*fs[3])(const double *) = {on, off, first};
  for (int f = 0; f < 3; f++) {
    double g[N] = {0};
    if (f == 0) __parad_autodiff((void *)on, x, g);
    if (f == 1) __parad_autodiff((void *)off, x, g);
    if (f == 2) __parad_autodiff((void *)first, x, g);
    for (int i = 0; i < N; i += 3) CHECK_CLOSE(g[i], fd_component(fs[f], x, N, i, 1e-6), 1e-6);
  }
  return check_done();
}
