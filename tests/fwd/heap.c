// Heap scratch memory inside the differentiated function: malloc, calloc, realloc and free get shadow
// blocks of their own. Finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <stdlib.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double prefix_energy(const double *x, int n) {
  double *pre = malloc(sizeof(double));
  int cap = 1;
  pre[0] = 0;
  for (int i = 0; i < n; i++) {
    if (i + 1 >= cap) {
      cap *= 2;
      pre = realloc(pre, cap * sizeof(double));
    }
    pre[i + 1] = pre[i] + x[i];
  }
  double *w = calloc(n, sizeof(double));
  for (int i = 0; i < n; i++) w[i] = pre[i + 1] * pre[i + 1];
  double e = 0;
  for (int i = 0; i < n; i++) e += w[i] / (1 + i);
  free(w);
  free(pre);
  return e;
}

static double along(void *ctx, double t) {
  double x[9], *dir = ctx;
  for (int i = 0; i < 9; i++) x[i] = 0.1 * i * i - 1 + t * dir[i];
  return prefix_energy(x, 9);
}

int main(void) {
  double x[9], dx[9];
  for (int i = 0; i < 9; i++) x[i] = 0.1 * i * i - 1, dx[i] = (i % 2 ? 1.0 : -0.5);
  double d = __parad_fwddiff((void *)prefix_energy, x, dx, parad_const, 9);
  CHECK_CLOSE(d, fd_central(along, dx, 0, 1e-6), 1e-7);
  return check_done();
}
