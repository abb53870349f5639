// memcpy, memmove (overlapping) and memset on active memory in reverse mode: a copy's adjoint flows from
// the destination's shadow back to the source's, memset and copies of constant data drop it. Forward
// tangents (tolerance 1e-12) and finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static const double table[4] = {1, 2, 3, 4};

__attribute__((noinline)) static double shuffle(double *x, int n) {
  double tmp[16];
  memcpy(tmp, x, n * sizeof *x);
  memmove(x + 1, x, (n - 1) * sizeof *x);
  x[0] = tmp[n - 1];
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * tmp[i] * tmp[i];
  memset(tmp, 0, sizeof tmp);
  memcpy(tmp + 4, table, sizeof table);
  for (int i = 0; i < 8; i++) s += tmp[i] * x[i % n];
  return s;
}

enum { N = 6 };
static const double x0[N] = {0.5, -1, 2, 0.25, 3, -0.5};

static double along(void *ctx, double t) {
  double x[N], *dir = ctx;
  for (int i = 0; i < N; i++) x[i] = x0[i] + t * dir[i];
  return shuffle(x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, e[N];
  memcpy(x, x0, sizeof x);
  __parad_autodiff((void *)shuffle, x, dx, parad_const, N);
  for (int k = 0; k < N; k++) {
    double x2[N], de[N] = {0};
    for (int i = 0; i < N; i++) e[i] = i == k;
    memcpy(x2, x0, sizeof x2);
    de[k] = 1;
    CHECK_CLOSE(dx[k], __parad_fwddiff((void *)shuffle, x2, de, parad_const, N), 1e-12);
    CHECK_CLOSE(dx[k], fd_central(along, e, 0, 1e-6), 1e-7);
  }
  return check_done();
}
