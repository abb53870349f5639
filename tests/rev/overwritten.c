// Memory overwritten after it is read: an array updated in place over several sweeps (each value read,
// then replaced), and a scalar accumulator reused. The reverse sweep must see the values as they were
// when read. Central finite differences (h = 1e-6, tolerance 1e-7) and forward tangents (1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double smooth_in_place(double *u, int n, int sweeps) {
  for (int s = 0; s < sweeps; s++) {
    double prev = u[0];
    for (int i = 1; i + 1 < n; i++) {
      double cur = u[i];
      u[i] = 0.25 * prev + 0.5 * cur + 0.25 * u[i + 1] + 0.1 * sin(cur);
      prev = cur;
    }
    u[0] = u[0] * u[n - 1];
  }
  double e = 0;
  for (int i = 0; i < n; i++) e += u[i] * u[i];
  return e;
}

enum { N = 12, SWEEPS = 5 };

static double along(void *ctx, double t) {
  double u[N], *dir = ctx;
  for (int i = 0; i < N; i++) u[i] = 0.1 * i + 0.3 + t * dir[i];
  return smooth_in_place(u, N, SWEEPS);
}

int main(void) {
  double u[N], du[N] = {0}, e[N];
  for (int i = 0; i < N; i++) u[i] = 0.1 * i + 0.3;
  __parad_autodiff((void *)smooth_in_place, u, du, parad_const, N, parad_const, SWEEPS);
  for (int k = 0; k < N; k++) {
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(du[k], fd_central(along, e, 0, 1e-6), 1e-7);
    double u2[N], de[N];
    for (int i = 0; i < N; i++) u2[i] = 0.1 * i + 0.3, de[i] = e[i];
    CHECK_CLOSE(du[k], __parad_fwddiff((void *)smooth_in_place, u2, de, parad_const, N, parad_const, SWEEPS), 1e-12);
  }
  return check_done();
}
