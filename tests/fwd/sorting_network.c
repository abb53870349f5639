// Compare-and-swap sorting (an odd-even transposition network) of an array in place: data-dependent
// swaps of active values, then a weighted sum of the sorted array. Away from ties the result is a
// permutation of the inputs, so d/dx_k = w[rank of x_k]; checked analytically (tolerance 1e-12) for
// every basis direction and a general direction, and the sorted array's shadow must be the permuted
// tangent.
// RUN: %parad-cc %cflags %s -o %t && %t
#include "check.h"

double __parad_fwddiff(void *, ...);

enum { N = 9 };

__attribute__((noinline)) static void cswap(double *a, double *b) {
  if (*a > *b) {
    double t = *a;
    *a = *b;
    *b = t;
  }
}

__attribute__((noinline)) static double sort_weighted(double *x, int n) {
  for (int round = 0; round < n; round++)
    for (int i = round & 1; i + 1 < n; i += 2) cswap(&x[i], &x[i + 1]);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * (i + 1) * x[i];
  return s;
}

int main(void) {
  const double x0[N] = {0.3, -1.2, 4.5, 2.2, -0.7, 3.9, 0.01, -3.3, 1.6};
  int rank[N];
  for (int k = 0; k < N; k++) {
    rank[k] = 0;
    for (int j = 0; j < N; j++) rank[k] += x0[j] < x0[k];
  }
  for (int k = 0; k < N; k++) {
    double x[N], dx[N] = {0};
    for (int i = 0; i < N; i++) x[i] = x0[i];
    dx[k] = 1;
    double d = __parad_fwddiff((void *)sort_weighted, x, dx, parad_const, N);
    CHECK_CLOSE(d, (rank[k] + 1) * (rank[k] + 1), 1e-12);
    CHECK_CLOSE(dx[rank[k]], 1.0, 1e-12); /* the tangent moved with its value */
    CHECK_CLOSE(x[rank[k]], x0[k], 0);
  }
  double x[N], dx[N], want = 0;
  for (int i = 0; i < N; i++) x[i] = x0[i], dx[i] = 0.5 + i, want += dx[i] * (rank[i] + 1) * (rank[i] + 1);
  CHECK_CLOSE(__parad_fwddiff((void *)sort_weighted, x, dx, parad_const, N), want, 1e-12);
  return check_done();
}
