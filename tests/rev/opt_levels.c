// The same moderately complex kernel (a loop with a data-dependent branch, a helper, a local array, a
// struct through a pointer with an int field, libm calls) differentiated in reverse mode at every
// optimisation level: the IR parad sees at -O0 (allocas everywhere, optnone) and -O3 (vectorised,
// unrolled, inlined) differ a lot, the gradients must not. The adjoint of a struct field the kernel
// writes (acc) is seeded through the shadow struct, so the gradient is of result + 0.5 acc. Central finite
// differences (h = 1e-6, tolerance 1e-7) for a few directions and the forward tangent along every unit
// direction of (x, scale, p) (tolerance 1e-12).
// RUN: %parad-cc %cflags -O0 %s -o %t.O0 && %t.O0
// RUN: %parad-cc %cflags -O1 %s -o %t.O1 && %t.O1
// RUN: %parad-cc %cflags -O2 %s -o %t.O2 && %t.O2
// RUN: %parad-cc %cflags -O3 %s -o %t.O3 && %t.O3
// RUN: %parad-cc %cflags -Os %s -o %t.Os && %t.Os
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
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

enum { N = 20, DIRS = N + 2 };
static double X0[N];

static double along(void *ctx, double t) { /* result + 0.5 acc along unit direction k of (x, scale, p) */
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  State st = {1.5 + (k == N) * t, N, 0.25};
  double r = kernel(x, &st, 1.2 + (k == N + 1) * t);
  return r + 0.5 * st.acc;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) X0[i] = x[i] = sin(0.5 * i) + 0.3;
  State st = {1.5, N, 0.25}, dst = {0, 0, 0.5};
  double dp = __parad_autodiff((void *)kernel, x, dx, &st, &dst, 1.2);
  State ref = {1.5, N, 0.25};
  kernel(X0, &ref, 1.2);
  CHECK_CLOSE(st.acc, ref.acc, 1e-15); /* the primal update happened once */
  for (int k = 0; k < DIRS; k++) {
    double got = k < N ? dx[k] : k == N ? dst.scale : dp;
    if (k % 3 == 0 || k >= N) CHECK_CLOSE(got, fd_central(along, &k, 0, 1e-6), 1e-7);
    double e[N];
    for (int i = 0; i < N; i++) e[i] = i == k;
    State s2 = {1.5, N, 0.25}, ds2 = {k == N, 0, 0};
    double t = __parad_fwddiff((void *)kernel, x, e, &s2, &ds2, 1.2, (double)(k == N + 1));
    CHECK_CLOSE(got, t + 0.5 * ds2.acc, 1e-12);
  }
  CHECK_CLOSE(dst.acc, 0.5, 0); /* acc += ...: the adjoint of the old acc is the seed */
  return check_done();
}
