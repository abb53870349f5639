// Shadows of large heap blocks are kept for the next gradients (runtime/tape.c) and must come back zeroed.
// A step allocates a work array (calloc, 96 KB, and malloc, 192 KB: past the size under which shadows are
// left to malloc), reads it while it still holds calloc's zeros (so that the reverse sweep leaves adjoints
// behind in its shadow), fills and reads it again, and frees it; several steps per gradient, several
// gradients in a row, with small blocks among them. J = sum_s sum_i (w_i a_i + v_i x_i^2) with a = the
// zeros first, so dJ/dx_i = 2 x_i v_i per step (checked to 1e-12 every gradient: a shadow handed back
// with the previous gradient's adjoints in it would add w_i's).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);

enum { N = 12000, STEPS = 3, SMALL = 100 };

__attribute__((noinline)) static double steps(const double *x, const double *w, const double *v) {
  double J = 0;
  for (int s = 0; s < STEPS; s++) {
    double *a = calloc(N, sizeof *a), *b = malloc(2 * N * sizeof *b), *c = calloc(SMALL, sizeof *c);
    for (int i = 0; i < N; i++) J += w[i] * a[i]; /* zeros: their adjoints stay in a's shadow */
    for (int i = 0; i < N; i++) a[i] = x[i] * x[i], b[2 * i] = v[i], b[2 * i + 1] = a[i];
    for (int i = 0; i < N; i++) J += b[2 * i] * b[2 * i + 1];
    for (int i = 0; i < SMALL; i++) c[i] = a[i];
    for (int i = 0; i < SMALL; i++) J += 0 * c[i];
    free(a), free(b), free(c);
  }
  return J;
}

int main(void) {
  static double x[N], w[N], v[N], dx[N];
  for (int i = 0; i < N; i++) w[i] = 1 + 0.001 * i, v[i] = 0.5 - 0.0001 * i;
  for (int g = 0; g < 4; g++) {
    for (int i = 0; i < N; i++) x[i] = 0.2 + 0.01 * (i % 97) + 0.1 * g, dx[i] = 0;
    __parad_autodiff((void *)steps, x, dx, parad_const, w, parad_const, v);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += !(fabs(dx[i] - STEPS * 2 * x[i] * v[i]) <= 1e-12 * fmax(1, fabs(dx[i])));
    if (bad) printf("gradient %d: %d wrong components\n", g, bad);
    CHECK_CLOSE((double)bad, 0, 0);
  }
  return check_done();
}
