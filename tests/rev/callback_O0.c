// A debug build (-O0) whose integrator takes its right-hand side as a callback with `void *user_data`. The
// derivatives are made from optimised copies; the copy of the caller inlines the integrator, the
// callback becomes a direct call of the function as compiled (the pointer held the original), and its
// derivative was made from the unoptimised code: 12 primals against 0.6 with a direct call. A copy's
// direct calls of functions that have copies go to the copies now (ad/optimised_copies.h ad_call_copies).
//   fixed:  the callback known at the call (the integrator inlined: a direct call);
//   chosen: the callback read from a table at run time (a call through the pointer, as before).
// Gradients against central differences (h = 1e-6, tolerance 1e-6 relative); the IR has no derivative
// of the callback as compiled.
// RUN: %parad-cc -O0 -I%S/../include %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -S -emit-llvm -o - | FileCheck %s
// CHECK-NOT: @augmented.lv_rhs.cddd
// CHECK-NOT: @augmented.decay_rhs.cddd
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);

typedef void (*rhs_fn)(double t, const double *y, double *dy, void *ud);
typedef struct {
  double a, b, c, d;
} Params;

static void lv_rhs(double t, const double *y, double *dy, void *ud) {
  const Params *p = ud;
  (void)t;
  dy[0] = p->a * y[0] - p->b * y[0] * y[1];
  dy[1] = p->c * y[0] * y[1] - p->d * y[1];
}

static void decay_rhs(double t, const double *y, double *dy, void *ud) {
  const Params *p = ud;
  dy[0] = -p->a * y[0] + p->b * sin(t);
  dy[1] = -p->c * y[1] * y[1] + p->d * y[0];
}

__attribute__((noinline)) void integrate(rhs_fn f, void *ud, double *y, int n, double h) {
  double k[2];
  for (int i = 0; i < n; i++) {
    f(i * h, y, k, ud);
    y[0] += h * k[0];
    y[1] += h * k[1];
  }
}

double fixed(const double *th, int n) {
  Params p = {th[0], th[1], th[2], th[3]};
  double y[2] = {1.0, 0.5};
  integrate(lv_rhs, &p, y, n, 0.01);
  return y[0] * y[0] + y[1];
}

rhs_fn table[2] = {lv_rhs, decay_rhs};

double chosen(const double *th, int n, int which) {
  Params p = {th[0], th[1], th[2], th[3]};
  double y[2] = {1.0, 0.5};
  integrate(table[which], &p, y, n, 0.01);
  return y[0] * y[0] + y[1];
}

static double th[4] = {1.0, 0.5, 0.12, 0.35};
static int which;
static double fixed_now(const double *x) { return fixed(x, 300); }
static double chosen_now(const double *x) { return chosen(x, 300, which); }

int main(void) {
  double g[4] = {0};
  __parad_autodiff((void *)fixed, th, g, 300);
  for (int j = 0; j < 4; j++) CHECK_CLOSE(g[j], fd_component(fixed_now, th, 4, j, 1e-6), 1e-6);
  for (which = 0; which < 2; which++) {
    double gc[4] = {0};
    __parad_autodiff((void *)chosen, th, gc, 300, which);
    for (int j = 0; j < 4; j++) CHECK_CLOSE(gc[j], fd_component(chosen_now, th, 4, j, 1e-6), 1e-6);
  }
  return check_done();
}
