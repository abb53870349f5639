// Split mode with tapes kept and reversed later, where the function carries a derivative from one call to
// the next through a global: f(x) = x^2 (1 + h) with h = the previous call's x, written back into h.
//   LIFO:      three calls reversed newest first: the chain's gradient, 2 x_k (1 + x_{k-1}) + x_{k+1}^2
//              (analytic, 1e-12).
//   scratch:   a function whose global is a scratch it writes before it reads (nothing carried from call to
//              call), its tapes reversed oldest first: each call's own gradient (1e-12).
//   reordered: the chain reversed out of order (1, 0, 2): a reverse call took another call's adjoint of h
//              and the gradient matched neither the chain nor independent calls, with no message; the
//              runtime stops the program now (exit 70), naming the global.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: not %t reordered 2>&1 | FileCheck %s
// RUN: not %t0 reordered 2>&1 | FileCheck %s
// CHECK: parad runtime: split mode's reverse calls (__parad_reverse) came out of order while the global 'hist' carries a derivative from one call to the next
#include <string.h>
#include "check.h"

void *__parad_augmentfwd(void *, ...);
double __parad_reverse(void *, ...);
extern int parad_tape;

double hist;
double chained(const double *x) {
  double old = hist;
  hist = x[0];
  return x[0] * x[0] * (1 + old);
}

double scratch[2];
double independent(const double *x) {
  scratch[0] = 3 * x[0], scratch[1] = x[0] * x[0];
  return scratch[0] * scratch[1];
}

int main(int argc, char **argv) {
  double X[3][1] = {{0.5}, {0.6}, {0.7}}, D[3][1] = {{0}}, S[3][1] = {{0}};
  void *t[3], *u[3];
  for (int k = 0; k < 3; k++) t[k] = __parad_augmentfwd((void *)chained, X[k], D[k]);
  int lifo[3] = {2, 1, 0}, reordered[3] = {1, 0, 2}, *order = argc > 1 && !strcmp(argv[1], "reordered") ? reordered : lifo;
  for (int j = 0; j < 3; j++) __parad_reverse((void *)chained, X[order[j]], D[order[j]], 1.0, parad_tape, t[order[j]]);
  for (int k = 0; k < 3; k++) {
    double x = X[k][0], before = k ? X[k - 1][0] : 0, after = k < 2 ? X[k + 1][0] : 0;
    CHECK_CLOSE(D[k][0], 2 * x * (1 + before) + after * after, 1e-12);
  }
  for (int k = 0; k < 3; k++) u[k] = __parad_augmentfwd((void *)independent, X[k], S[k]);
  for (int k = 0; k < 3; k++) __parad_reverse((void *)independent, X[k], S[k], 1.0, parad_tape, u[k]);
  for (int k = 0; k < 3; k++) CHECK_CLOSE(S[k][0], 9 * X[k][0] * X[k][0], 1e-12);
  return check_done();
}
