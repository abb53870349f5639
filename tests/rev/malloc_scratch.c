// Heap scratch memory whose allocation and release are in different places, in reverse mode: a helper
// mallocs and fills a buffer that its caller uses and frees; another helper frees a buffer the caller
// allocated; and a loop allocates a fresh scratch block every iteration (freed in the same iteration or,
// for odd iterations, kept in a list and freed after the loop). The shadow of each block must live until
// the reverse sweep has used it. Central finite differences (h = 1e-6, tolerance 1e-7) and forward
// tangents along every unit direction (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double *smoothed(const double *x, int n) {
  double *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++) b[i] = 0.5 * x[i] + 0.25 * (x[(i + 1) % n] + x[(i + n - 1) % n]);
  return b;
}

__attribute__((noinline)) static void release(double *p) { free(p); }

__attribute__((noinline)) static double energy(const double *x, int n) {
  double *b = smoothed(x, n);      /* allocated in the helper */
  double *c = malloc(n * sizeof *c); /* released in a helper */
  for (int i = 0; i < n; i++) c[i] = b[i] * b[i] + sin(x[i]);
  free(b);
  double s = 0;
  double *keep[16];
  int kept = 0;
  for (int it = 0; it < n; it++) {
    double *scratch = malloc(3 * sizeof *scratch);
    scratch[0] = c[it];
    scratch[1] = c[(it + 2) % n] * x[it];
    scratch[2] = exp(-scratch[0] * 0.1);
    s += scratch[0] * scratch[2] + scratch[1];
    if (it % 2) keep[kept++] = scratch;
    else free(scratch);
  }
  for (int i = 0; i < kept; i++) s += 0.01 * keep[i][1] * keep[i][1], free(keep[i]);
  release(c);
  return s;
}

enum { N = 9 };
static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return energy(x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, e[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = cos(0.8 * i) + 0.1 * i;
  __parad_autodiff((void *)energy, x, dx, parad_const, N);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dx[k], fd_central(along, &k, 0, 1e-6), 1e-7);
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(dx[k], __parad_fwddiff((void *)energy, x, e, parad_const, N), 1e-12);
  }
  return check_done();
}
