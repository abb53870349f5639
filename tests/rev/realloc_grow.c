// realloc growing an array one element at a time in a loop, in reverse mode: starting from NULL (realloc
// acting as malloc), every iteration reallocates (the block may move, its shadow must move with it and
// keep the adjoints of what was stored before), appends a value computed from the previous entries, and
// at the end shrinks the block with realloc before reading it. Central finite differences (h = 1e-6,
// tolerance 1e-7) and forward tangents along every unit direction (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double grow(const double *x, int n, int steps) {
  double *h = NULL;
  int len = 0;
  for (int s = 0; s < steps; s++) {
    h = realloc(h, (len + 1) * sizeof *h);
    double v = x[s % n];
    if (len > 0) v += 0.5 * sin(h[len - 1]) * x[(s + 1) % n];
    if (len > 2) v -= 0.1 * h[len - 3] * h[len - 1];
    h[len++] = v;
  }
  h = realloc(h, (len / 2) * sizeof *h); /* keep the first half */
  double r = 0;
  for (int i = 0; i < len / 2; i++) r += h[i] * h[i] * (1 + i % 3);
  free(h);
  return r;
}

enum { N = 5, STEPS = 40 };
static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return grow(x, N, STEPS);
}

int main(void) {
  double x[N], dx[N] = {0}, e[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.3 * i - 0.4;
  __parad_autodiff((void *)grow, x, dx, parad_const, N, parad_const, STEPS);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dx[k], fd_central(along, &k, 0, 1e-6), 1e-7);
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(dx[k], __parad_fwddiff((void *)grow, x, e, parad_const, N, parad_const, STEPS), 1e-12);
  }
  return check_done();
}
