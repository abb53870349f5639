// Compare-and-swap sorting (odd-even transposition network) of an array in place, in reverse mode: the
// swaps are data-dependent and overwrite active memory, so the reverse sweep must undo each swap of the
// adjoints. Then a weighted sum of the sorted array. Away from ties the sorted array is a permutation of
// the input, so with the shadow seeded with v (the adjoint of the sorted array, an output too), the
// gradient is dx_k = w[rank k] + v[rank k]: checked exactly up to rounding (tolerance 1e-12), with the
// forward tangent along every unit direction (tolerance 1e-12, including the seed's contribution).
// RUN: %parad-cc %cflags %s -o %t && %t
#include "check.h"

void __parad_autodiff(void *, ...);
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
  for (int seeded = 0; seeded < 2; seeded++) {
    double x[N], dx[N], v[N];
    for (int i = 0; i < N; i++) x[i] = x0[i], v[i] = seeded ? 0.5 - 0.25 * i : 0, dx[i] = v[i];
    __parad_autodiff((void *)sort_weighted, x, dx, parad_const, N);
    for (int k = 0; k < N; k++) {
      CHECK_CLOSE(x[rank[k]], x0[k], 0); /* the primal was sorted */
      CHECK_CLOSE(dx[k], (rank[k] + 1) * (rank[k] + 1) + v[rank[k]], 1e-12);
      double x2[N], e[N];
      for (int i = 0; i < N; i++) x2[i] = x0[i], e[i] = i == k;
      double t = __parad_fwddiff((void *)sort_weighted, x2, e, parad_const, N);
      for (int i = 0; i < N; i++) t += v[i] * e[i]; /* v . (tangent of the sorted array) */
      CHECK_CLOSE(dx[k], t, 1e-12);
    }
  }
  return check_done();
}
