// A parallel program built with the hardening flags distributions use: -ftrivial-auto-var-init=pattern
// (every local first holds 0xAA.. bytes: a pointer variable a constant address), -D_FORTIFY_SOURCE=2,
// -fstack-protector-strong, -fstack-clash-protection, -fcf-protection. The pattern stored into a pointer
// variable before malloc's result was taken for a pointer without a shadow (refused); a constant address
// is its own shadow now, as null is. f = sum_i (x_i^2 through a heap buffer a parallel loop fills) + a
// product printed; gradient and tangents against the analytic one (1e-14), at 1 and 3 threads, -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp -ftrivial-auto-var-init=pattern -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fstack-clash-protection -fcf-protection %s -o %t -lm && OMP_NUM_THREADS=1 %t > /dev/null && OMP_NUM_THREADS=3 %t > /dev/null
// RUN: %parad-cc -O0 -I%S/../include -fopenmp -ftrivial-auto-var-init=pattern %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0 > /dev/null
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 37 };

double f(const double *x, int n) {
  double *y = malloc(n * sizeof *y), s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += y[i];
  printf("%g\n", s * x[0]);
  free(y);
  return s + x[0] * x[1];
}

int main(void) {
  double x[N], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.1 * (i + 1);
  __parad_autodiff((void *)f, x, g, parad_const, N);
  for (int i = 0; i < N; i++) {
    double want = 2 * x[i] + (i == 0 ? x[1] : 0) + (i == 1 ? x[0] : 0);
    CHECK_CLOSE(g[i], want, 1e-14);
    double v[N] = {0};
    v[i] = 1;
    if (i % 6 == 0) CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, parad_const, N), want, 1e-14);
  }
  return check_done();
}
