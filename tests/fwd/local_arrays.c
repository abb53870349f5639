// Stack memory: a fixed local array, a variable-length array, and a scalar whose address is taken;
// all get zeroed shadows. Finite differences (h = 1e-6, tolerance 1e-7) and analytic checks.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static void accumulate(double *acc, double v) { *acc += v * v; }

__attribute__((noinline)) static double smooth(const double *x, int n) {
  double buf[32];
  double vla[n + 2];
  vla[0] = vla[n + 1] = 0;
  for (int i = 0; i < n; i++) vla[i + 1] = x[i];
  for (int i = 0; i < n; i++) buf[i] = 0.25 * vla[i] + 0.5 * vla[i + 1] + 0.25 * vla[i + 2];
  double acc = 0;
  for (int i = 0; i < n; i++) accumulate(&acc, tanh(buf[i]));
  return acc;
}

static double along(void *ctx, double t) {
  double x[5], *dir = ctx;
  for (int i = 0; i < 5; i++) x[i] = 0.2 * i - 0.3 + t * dir[i];
  return smooth(x, 5);
}

int main(void) {
  double x[5], dx[5] = {1, -0.5, 0.25, 2, 0.1};
  for (int i = 0; i < 5; i++) x[i] = 0.2 * i - 0.3;
  double d = __parad_fwddiff((void *)smooth, x, dx, parad_const, 5);
  CHECK_CLOSE(d, fd_central(along, dx, 0, 1e-6), 1e-7);
  return check_done();
}
