// The callback pattern of C libraries: a context record on the stack holding the active parameters and a
// pointer to constant problem data (passed parad_const), handed as `void *` to a routine that calls back
// through a function pointer chosen at run time. The record's shadow holds the constant pointer itself
// where every pointer read from that field is only loaded from (a view, ad/constants.h); the walk that
// proves it stopped at the call through the pointer, and the program was refused ("needs a shadow"). It
// follows every function of the program the pointer may hold now.
// The data are static const tables (read-only memory: an adjoint added there would fault). Gradients
// against central differences (h = 1e-6, tolerance 1e-6 relative), each callback, -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);

typedef struct {
  const double *theta;
  const double *t, *w;
  int n;
} Ctx;

__attribute__((noinline)) double sum_over(int n, double (*fn)(int i, void *ctx), void *ctx) {
  double s = 0;
  for (int i = 0; i < n; i++) s += fn(i, ctx);
  return s;
}

static double sine_fit(int i, void *vctx) {
  const Ctx *c = vctx;
  double r = c->theta[0] * sin(c->theta[1] * c->t[i]) - c->w[i];
  return r * r;
}

static double line_fit(int i, void *vctx) {
  const Ctx *c = vctx;
  double r = c->theta[0] * c->t[i] + c->theta[1] - c->w[i];
  return r * r * (1 + c->t[i]);
}

double (*const fits[2])(int, void *) = {sine_fit, line_fit};

double loss(const double *theta, const double *t, const double *w, int n, int which) {
  Ctx c = {theta, t, w, n};
  return sum_over(n, fits[which], &c);
}

static const double T[6] = {0.1, 0.4, 0.7, 1.0, 1.3, 1.7}, W[6] = {0.2, 0.9, 1.1, 0.8, 0.3, -0.4};
static int which;
static double loss_now(const double *x) { return loss(x, T, W, 6, which); }

int main(void) {
  double th[2] = {1.3, 2.1};
  for (which = 0; which < 2; which++) {
    double g[2] = {0};
    __parad_autodiff((void *)loss, th, g, parad_const, T, parad_const, W, 6, which);
    for (int j = 0; j < 2; j++) CHECK_CLOSE(g[j], fd_component(loss_now, th, 2, j, 1e-6), 1e-6);
  }
  return check_done();
}
