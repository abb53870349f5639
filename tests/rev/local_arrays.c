// Stack memory in reverse mode: a fixed local array, a variable-length array with zero padding, and a
// local scalar whose address is passed to a helper that accumulates into it. Their shadows are zeroed
// stack memory that the reverse sweep reads and clears. Central finite differences (h = 1e-6,
// tolerance 1e-7: truncation h^2 f''' and rounding eps/h) and the forward tangent along every unit
// direction (tolerance 1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static void accumulate(double *acc, double v) { *acc += v * v * (1 + *acc); }

__attribute__((noinline)) static double smooth(const double *x, int n) {
  double buf[32];
  double vla[n + 2];
  vla[0] = vla[n + 1] = 0;
  for (int i = 0; i < n; i++) vla[i + 1] = x[i];
  for (int i = 0; i < n; i++) buf[i] = 0.25 * vla[i] + 0.5 * vla[i + 1] + 0.25 * vla[i + 2];
  for (int i = 0; i < n; i++) vla[i + 1] = buf[i] * buf[(i + 1) % n]; /* the VLA reused */
  double acc = 0;
  for (int i = 0; i < n; i++) accumulate(&acc, tanh(vla[i + 1]));
  return acc;
}

enum { N = 7 };
static double X0[N];

static double along(void *ctx, double t) {
  double x[N], *dir = ctx;
  for (int i = 0; i < N; i++) x[i] = X0[i] + t * dir[i];
  return smooth(x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, e[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.2 * i - 0.3;
  __parad_autodiff((void *)smooth, x, dx, parad_const, N);
  for (int k = 0; k < N; k++) {
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(dx[k], fd_central(along, e, 0, 1e-6), 1e-7);
    CHECK_CLOSE(dx[k], __parad_fwddiff((void *)smooth, x, e, parad_const, N), 1e-12);
  }
  return check_done();
}
