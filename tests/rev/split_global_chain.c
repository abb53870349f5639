// Split mode chained through a global, as a two-stage model is written: layer(x, w) writes its output into
// the global h[], loss() reads h[] and returns a scalar; the user runs the augmented forward calls of layer
// then loss, then the reverse calls of loss then layer, each with its own tape. The adjoint of h that
// loss's reverse call leaves is what layer's needs; it was zeroed at every reverse call (a gradient of 0,
// with no message). Now the adjoints of globals are zeroed where a split-mode gradient begins.
//   h_i = sin(x_i) w_i, loss = sum_i (i + 1) h_i^2 + h_0 h_{N-1},  d loss/d x_i = dh_i cos(x_i) w_i,
//   d loss/d w_i = dh_i sin(x_i), with dh_i = 2 (i + 1) h_i + [i = 0] h_{N-1} + [i = N-1] h_0.
// Checked against that analytic gradient (1e-12): the chain once; two samples with four tapes alive,
// reversed last in first out; whole derivatives (__parad_autodiff) of functions reading h computed between
// the calls of a gradient (zero adjoints in, nothing left for the gradient); a gradient after a
// reverse call left h's adjoint (it starts from zero), also after an augmented call whose tape split forward
// mode gave back (__enzyme_fwdsplit: that tape kept the gradient open, and the next one started from the
// adjoint left in h). A whole derivative asked for after loss's reverse
// call and before layer's would drop the adjoint waiting in h's shadow: the runtime stops the program.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: not --crash %t between 2>&1 | FileCheck %s
// RUN: not --crash %t0 between 2>&1 | FileCheck %s
// CHECK: parad runtime: a derivative (__parad_autodiff) was computed between the calls of a split-mode gradient while the global 'h' held an adjoint that a reverse call (__parad_reverse) left for a later one
#include <math.h>
#include <string.h>
#include "check.h"

void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwdsplit(void *, ...);
extern int enzyme_tape, enzyme_dup, enzyme_const;

enum { N = 4 };
double h[N];

__attribute__((noinline)) void layer(const double *x, const double *w) {
  for (int i = 0; i < N; i++) h[i] = sin(x[i]) * w[i];
}
__attribute__((noinline)) double loss(void) {
  double s = h[0] * h[N - 1];
  for (int i = 0; i < N; i++) s += (i + 1) * h[i] * h[i];
  return s;
}
__attribute__((noinline)) double sum_h(void) { /* another reader of h */
  double s = 0;
  for (int i = 0; i < N; i++) s += h[i];
  return s;
}
__attribute__((noinline)) double layer_sum(const double *x, const double *w) { /* writes h, returns its sum */
  layer(x, w);
  return sum_h();
}

static void analytic(const double *x, const double *w, double *gx, double *gw) {
  double hv[N], dh[N];
  for (int i = 0; i < N; i++) hv[i] = sin(x[i]) * w[i];
  for (int i = 0; i < N; i++) dh[i] = 2 * (i + 1) * hv[i] + (i == 0) * hv[N - 1] + (i == N - 1) * hv[0];
  for (int i = 0; i < N; i++) gx[i] = dh[i] * cos(x[i]) * w[i], gw[i] = dh[i] * sin(x[i]);
}

static void check(const double *x, const double *w, const double *dx, const double *dw) {
  double gx[N], gw[N];
  analytic(x, w, gx, gw);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], gx[i], 1e-12), CHECK_CLOSE(dw[i], gw[i], 1e-12);
}

int main(int argc, char **argv) {
  double x[2][N], w[N], dx[2][N] = {{0}}, dw[2][N] = {{0}};
  for (int i = 0; i < N; i++) x[0][i] = 0.2 + 0.3 * i, x[1][i] = 1.1 - 0.2 * i, w[i] = 0.5 + 0.25 * i;

  if (argc > 1 && !strcmp(argv[1], "between")) { /* stops: h's adjoint waits for layer's reverse call */
    void *t1 = __enzyme_augmentfwd((void *)layer, enzyme_dup, x[0], dx[0], enzyme_dup, w, dw[0]);
    void *t2 = __enzyme_augmentfwd((void *)loss);
    __enzyme_reverse((void *)loss, 1.0, enzyme_tape, t2);
    double g[N] = {0}, gw[N] = {0};
    __enzyme_autodiff((void *)layer_sum, x[1], g, w, gw);
    __enzyme_reverse((void *)layer, enzyme_dup, x[0], dx[0], enzyme_dup, w, dw[0], enzyme_tape, t1);
    return 0;
  }

  /* the chain once */
  void *t1 = __enzyme_augmentfwd((void *)layer, enzyme_dup, x[0], dx[0], enzyme_dup, w, dw[0]);
  void *t2 = __enzyme_augmentfwd((void *)loss);
  __enzyme_reverse((void *)loss, 1.0, enzyme_tape, t2);
  __enzyme_reverse((void *)layer, enzyme_dup, x[0], dx[0], enzyme_dup, w, dw[0], enzyme_tape, t1);
  check(x[0], w, dx[0], dw[0]);

  /* two samples, four tapes alive, reversed last in first out (layer's tape records what its reverse
     needs, so the second sample overwriting h does not matter) */
  void *tl[2], *tk[2];
  memset(dx, 0, sizeof dx), memset(dw, 0, sizeof dw);
  for (int s = 0; s < 2; s++) {
    tl[s] = __enzyme_augmentfwd((void *)layer, enzyme_dup, x[s], dx[s], enzyme_dup, w, dw[s]);
    tk[s] = __enzyme_augmentfwd((void *)loss);
  }
  for (int s = 1; s >= 0; s--) {
    __enzyme_reverse((void *)loss, 1.0, enzyme_tape, tk[s]);
    __enzyme_reverse((void *)layer, enzyme_dup, x[s], dx[s], enzyme_dup, w, dw[s], enzyme_tape, tl[s]);
  }
  for (int s = 0; s < 2; s++) check(x[s], w, dx[s], dw[s]);

  /* a whole derivative of another function reading h, between the calls of a gradient: its own result
     (d sum_i sin(x_i) w_i), and nothing of it reaches the gradient */
  memset(dx, 0, sizeof dx), memset(dw, 0, sizeof dw);
  t1 = __enzyme_augmentfwd((void *)layer, enzyme_dup, x[0], dx[0], enzyme_dup, w, dw[0]);
  double g[N] = {0}, gw[N] = {0};
  __enzyme_autodiff((void *)layer_sum, x[1], g, w, gw);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], cos(x[1][i]) * w[i], 1e-12), CHECK_CLOSE(gw[i], sin(x[1][i]), 1e-12);
  __enzyme_autodiff((void *)sum_h); /* leaves h's adjoint 1 behind, which is zeroed again */
  layer(x[0], w); /* h as the gradient's forward calls left it */
  t2 = __enzyme_augmentfwd((void *)loss);
  __enzyme_reverse((void *)loss, 1.0, enzyme_tape, t2);
  __enzyme_reverse((void *)layer, enzyme_dup, x[0], dx[0], enzyme_dup, w, dw[0], enzyme_tape, t1);
  check(x[0], w, dx[0], dw[0]);

  /* a tape given back by split forward mode closes its gradient as a reverse call does (it kept the
     gradient open for good: the next ones did not start from zero) */
  t2 = __enzyme_augmentfwd((void *)loss);
  CHECK_CLOSE(__enzyme_fwdsplit((void *)loss, t2), 0.0, 0);

  /* loss alone leaves h's adjoint behind; the next gradient starts from zero */
  t2 = __enzyme_augmentfwd((void *)loss);
  __enzyme_reverse((void *)loss, 1.0, enzyme_tape, t2);
  memset(g, 0, sizeof g), memset(gw, 0, sizeof gw);
  void *t3 = __enzyme_augmentfwd((void *)layer_sum, enzyme_dup, x[1], g, enzyme_dup, w, gw);
  __enzyme_reverse((void *)layer_sum, enzyme_dup, x[1], g, enzyme_dup, w, gw, 1.0, enzyme_tape, t3);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], cos(x[1][i]) * w[i], 1e-12), CHECK_CLOSE(gw[i], sin(x[1][i]), 1e-12);
  return check_done();
}
