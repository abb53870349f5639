// A checkpointed loop in a function whose address the program also takes (kept in a table of models, its
// address printed, given to a finite-difference helper), the loop reading a constant pointer argument (the
// data). Its callers are not all seen,
// so the loop's slot for the data was taken to need a shadow, and the request that passes the data
// parad_const was refused ("the pointer stored here into memory with derivatives needs a shadow ...").
// An address taken is only a value where no function whose derivative is made calls through a pointer of
// the function's type (src/ad/checkpoint.c, called_through_pointer). Checked: the gradient against
// central differences (h = 1e-6, relative 1e-6) and the loop checkpointed (at least two runs a step), at
// -O2 and -O0. Built alone (THROUGH_TABLE), a request through a wrapper that calls the table's entry, the
// data parad_dup: against central differences in the data and in the parameters. (Both requests in one
// program stay refused: the loop's slot for the data would need a shadow for one and none for the other.)
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags -DTHROUGH_TABLE %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -DTHROUGH_TABLE -I%S/../include %s -o %t2 -lm && %t2
#include <math.h>
#include <stdio.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void __parad_checkpoint_loop(void);
void parad_checkpoint_counts(long *steps, long *runs);

enum { N = 200 };

/* a GARCH(1,1) negative log-likelihood */
static double garch(const double *theta, const double *y, int n) {
  double h = theta[0], ll = 0.0;
  for (int t = 0; t < n; t++) {
    __parad_checkpoint_loop();
    h = theta[0] + theta[1] * y[t] * y[t] + theta[2] * h;
    ll += log(h) + y[t] * y[t] / h;
  }
  return ll;
}

static double mean_square(const double *theta, const double *y, int n) {
  double s = 0;
  for (int t = 0; t < n; t++) s += (y[t] - theta[0]) * (y[t] - theta[0]);
  return s / n;
}

typedef double (*model_fn)(const double *, const double *, int);
static model_fn models[2] = {garch, mean_square};
static int which;

/* a central difference of f along parameter k, f given as a pointer (not inlined: its callee unknown) */
__attribute__((noinline, unused)) static double central(model_fn f, const double *th, int k, const double *y) {
  double a[3] = {th[0], th[1], th[2]}, b[3] = {th[0], th[1], th[2]}, e = 1e-6;
  a[k] += e, b[k] -= e;
  return (f(a, y, N) - f(b, y, N)) / (2 * e);
}

static double through_table(const double *theta, const double *y, int n) { return models[which](theta, y, n); }

int main(void) {
  double y[N], th[3] = {0.1, 0.2, 0.5};
  for (int i = 0; i < N; i++) y[i] = sin(i * 0.7) + 0.1 * cos(i * 1.3);
  char where[64];
  snprintf(where, sizeof where, "%p", (void *)models[0]);

  double g[3] = {0};
#ifndef THROUGH_TABLE
  long steps0, runs0, steps1, runs1;
  parad_checkpoint_counts(&steps0, &runs0);
  __parad_autodiff((void *)garch, th, g, parad_const, y, parad_const, N);
  parad_checkpoint_counts(&steps1, &runs1);
  CHECK_CLOSE((double)(steps1 - steps0 >= N && runs1 - runs0 >= 2 * N), 1.0, 0);
  for (int k = 0; k < 3; k++) CHECK_CLOSE(g[k], central(garch, th, k, y), 1e-6);

#else
  double dy[N] = {0};
  __parad_autodiff((void *)through_table, th, g, y, dy, parad_const, N);
  for (int k = 0; k < 3; k++) {
    double a[3] = {th[0], th[1], th[2]}, b[3] = {th[0], th[1], th[2]}, e = 1e-6;
    a[k] += e, b[k] -= e;
    CHECK_CLOSE(g[k], (garch(a, y, N) - garch(b, y, N)) / (2 * e), 1e-6);
  }
  for (int t = 0; t < N; t += 37) {
    double keep = y[t], e = 1e-6;
    y[t] = keep + e;
    double p = garch(th, y, N);
    y[t] = keep - e;
    double m = garch(th, y, N);
    y[t] = keep;
    CHECK_CLOSE(dy[t], (p - m) / (2 * e), 1e-6);
  }
#endif
  return check_done();
}
