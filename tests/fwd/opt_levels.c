// The same moderately complex kernel (a loop with a data-dependent branch, a helper call, a local array,
// a struct through a pointer, and libm calls) differentiated at every optimisation level: the IR Parad
// sees differs a lot between -O0 (allocas, loads and stores everywhere, optnone) and -O3 (vectorised,
// unrolled, inlined), and the tangents must not. Central finite differences (h = 1e-6, tolerance 1e-7)
// for the result and for a struct field the kernel writes, along several directions.
// RUN: %parad-cc %cflags -O0 %s -o %t.O0 && %t.O0
// RUN: %parad-cc %cflags -O1 %s -o %t.O1 && %t.O1
// RUN: %parad-cc %cflags -O2 %s -o %t.O2 && %t.O2
// RUN: %parad-cc %cflags -O3 %s -o %t.O3 && %t.O3
// RUN: %parad-cc %cflags -Os %s -o %t.Os && %t.Os
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

typedef struct { double scale; int n; double acc; } State;

static double smooth(double v) { return v > 0 ? v * v / (1 + v) : tanh(v); }

static double kernel(const double *x, State *st, double p) {
  double buf[32];
  int n = st->n;
  for (int i = 0; i < n; i++) buf[i] = smooth(x[i] * p - 0.2 * i) * st->scale;
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = buf[i] * buf[(i + 3) % n];
    if (v > 0.05) s += sqrt(v);
    else s += v * exp(x[i]);
  }
  st->acc += s * p;
  return s + pow(p, 2.5) * st->scale;
}

typedef struct { const double *dir; int want_acc; } Ctx;

static double along(void *ctx, double t) {
  Ctx *c = ctx;
  double x[20];
  for (int i = 0; i < 20; i++) x[i] = sin(0.5 * i) + 0.3 + t * c->dir[i];
  State st = {1.5, 20, 0.25};
  double r = kernel(x, &st, 1.2 + t * c->dir[20]);
  return c->want_acc ? st.acc : r;
}

int main(void) {
  double x[20], dir[21];
  for (int i = 0; i < 20; i++) x[i] = sin(0.5 * i) + 0.3, dir[i] = cos(i);
  dir[20] = 0.7;
  for (int k = 0; k < 2; k++) { /* with and without a tangent for p */
    if (k) dir[20] = 0;
    State st = {1.5, 20, 0.25}, dst = {0, 0, 0};
    double d = __parad_fwddiff((void *)kernel, x, dir, &st, &dst, 1.2, dir[20]);
    Ctx c = {dir, 0};
    CHECK_CLOSE(d, fd_central(along, &c, 0, 1e-6), 1e-7);
    c.want_acc = 1;
    CHECK_CLOSE(dst.acc, fd_central(along, &c, 0, 1e-6), 1e-7); /* tangent of the field written */
    CHECK_CLOSE(st.acc, along(&c, 0), 1e-15);                     /* and its primal value */
  }
  /* only p moves: d/dp of the closed-form term pow(p, 2.5) * scale is part of the result */
  double zero[20] = {0};
  State st = {1.5, 20, 0.25}, dst = {0, 0, 0};
  double dp = __parad_fwddiff((void *)kernel, x, zero, &st, &dst, 1.2, 1.0);
  double dirp[21] = {0};
  dirp[20] = 1;
  Ctx c = {dirp, 0};
  CHECK_CLOSE(dp, fd_central(along, &c, 0, 1e-6), 1e-7);
  return check_done();
}
