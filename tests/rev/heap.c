// Heap scratch memory inside the differentiated function: malloc, calloc, realloc (which moves the data
// and its adjoints) and free (whose block's shadow lives until the reverse sweep is done). Finite
// differences (h = 1e-6, tolerance 1e-7) and forward tangents (1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
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
  for (int i = 0; i < n; i++) {
    double *tmp = malloc(2 * sizeof(double)); /* a scratch block per iteration */
    tmp[0] = w[i];
    tmp[1] = 1.0 / (1 + i);
    e += tmp[0] * tmp[1];
    free(tmp);
  }
  free(w);
  free(pre);
  return e;
}

enum { N = 9 };
static double along(void *ctx, double t) {
  double x[N], *dir = ctx;
  for (int i = 0; i < N; i++) x[i] = 0.1 * i * i - 1 + t * dir[i];
  return prefix_energy(x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, e[N];
  for (int i = 0; i < N; i++) x[i] = 0.1 * i * i - 1;
  __parad_autodiff((void *)prefix_energy, x, dx, parad_const, N);
  for (int k = 0; k < N; k++) {
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(dx[k], fd_central(along, e, 0, 1e-6), 1e-7);
    CHECK_CLOSE(dx[k], __parad_fwddiff((void *)prefix_energy, x, e, parad_const, N), 1e-12);
  }
  return check_done();
}
