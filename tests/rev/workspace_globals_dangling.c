// Workspace pointers in globals and statics as Numerical Recipes keeps them, differentiated after plain
// calls and twice in a row (an optimiser's loop):
//  - linmin's pattern: a file-scope `pcom` allocated on each call and freed at its end (dangling between
//    calls) and a function-pointer global `nrfunc`, set after the caller called through its own pointer
//    (powell's `*fret = (*func)(p)`). That call was taken to maybe read both, so the gradient asked for a
//    shadow of the freed block at its entry and stopped ("a pointer global holds memory Parad has no
//    shadow for"); a call through a pointer now reaches only the functions it may hold.
//  - mrqmin's: a static workspace allocated on a routine's first phase, used, freed on its last phase,
//    dangling in between; whether a phase sets it depends on an argument, so the gradient's entry still
//    finds the freed block: a block the program freed gets no shadow now, and the program sets it again
//    before reading it (it stopped there too).
//  - a 1-based static workspace `malloc(3 * sizeof(double)) - 1`, allocated on the first call: the pointer
//    lies before its block, which the runtime did not find.
// Gradients against the analytic ones (1e-12): f = x0^2 + x1^2 (through a line search's pointers), then
// the workspace steps' closed forms; -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);

/* linmin */
double *pcom, (*nrfunc)(double *);
__attribute__((noinline)) static double func(double *p) { return p[0] * p[0] + p[1] * p[1]; }
__attribute__((noinline)) static double f1dim(double t) {
  double xt[2] = {pcom[0] + t, pcom[1]};
  return (*nrfunc)(xt);
}
__attribute__((noinline)) static double linmin(double *p, double (*fn)(double *), double (*line)(double)) {
  pcom = malloc(2 * sizeof(double));
  nrfunc = fn;
  pcom[0] = p[0], pcom[1] = p[1];
  double r = (*line)(0.0);
  free(pcom);
  return r;
}
__attribute__((noinline)) double powell(double *x, double (*fn)(double *)) {
  double r0 = (*fn)(x);
  return linmin(x, fn, f1dim) + 0.0 * r0;
}
static double line_search(double *x) { return powell(x, func); }

/* mrqmin */
__attribute__((noinline)) static void phase(double *a, int when) {
  static double *ws;
  if (when < 0) ws = malloc(2 * sizeof(double)), ws[0] = a[0], ws[1] = 1;
  if (when == 0) ws[1] *= ws[0] + a[1], a[0] = ws[1] * a[0];
  if (when > 0) free(ws);
}
static double fit(double *x) {
  double a[2] = {x[0], x[1]};
  phase(a, -1);
  phase(a, 0); /* w = x0 + x1, a0 = x0 w */
  phase(a, 0); /* w = (x0 + x1)^2, a0 = x0 (x0 + x1)^3 */
  phase(a, 1);
  return a[0];
}

/* a 1-based workspace */
static double *ws1;
static double one_based(double *x) {
  if (!ws1) ws1 = (double *)malloc(3 * sizeof(double)) - 1;
  for (int i = 1; i <= 3; i++) ws1[i] = x[i - 1] * i;
  return ws1[1] * ws1[1] + ws1[2] * ws1[3]; /* x0^2 + 6 x1 x2 */
}

int main(void) {
  double x[3] = {1, 0.5, 0.25};
  for (int round = 0; round < 3; round++) {
    double g[3] = {0};
    CHECK_CLOSE(line_search(x), 1.25, 1e-15);
    __parad_autodiff((void *)line_search, x, g);
    CHECK_CLOSE(g[0], 2 * x[0], 1e-12);
    CHECK_CLOSE(g[1], 2 * x[1], 1e-12);
    double h[3] = {0}, s = x[0] + x[1];
    CHECK_CLOSE(fit(x), x[0] * s * s * s, 1e-15);
    __parad_autodiff((void *)fit, x, h);
    CHECK_CLOSE(h[0], s * s * s + 3 * x[0] * s * s, 1e-12);
    CHECK_CLOSE(h[1], 3 * x[0] * s * s, 1e-12);
    double k[3] = {0};
    CHECK_CLOSE(one_based(x), 1.75, 1e-15);
    __parad_autodiff((void *)one_based, x, k);
    CHECK_CLOSE(k[0], 2 * x[0], 1e-12);
    CHECK_CLOSE(k[1], 6 * x[2], 1e-12);
    CHECK_CLOSE(k[2], 6 * x[1], 1e-12);
  }
  free(ws1 + 1);
  return check_done();
}
