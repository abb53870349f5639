// Recursive merge sort in reverse mode: the array is sorted in place through a scratch buffer (malloc'd
// once by the caller of the recursion and shared by every level), with data-dependent merges that copy
// active values back and forth; then a weighted sum of squares of the sorted values plus a sine of the
// median. Away from ties the sorted array is a permutation, so d/dx_k = 2 (rank_k + 1) x_k (+ the
// median's cos): analytic (tolerance 1e-12, rounding only) and forward tangents along every unit
// direction (tolerance 1e-12), for sizes that split evenly and unevenly.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static void msort(double *a, double *tmp, int lo, int hi) { /* sorts a[lo, hi) */
  if (hi - lo < 2) return;
  int mid = (lo + hi) / 2;
  msort(a, tmp, lo, mid);
  msort(a, tmp, mid, hi);
  int i = lo, j = mid, k = lo;
  while (i < mid && j < hi) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
  while (i < mid) tmp[k++] = a[i++];
  while (j < hi) tmp[k++] = a[j++];
  for (k = lo; k < hi; k++) a[k] = tmp[k];
}

__attribute__((noinline)) static double sorted_energy(double *a, int n) {
  double *tmp = malloc(n * sizeof *tmp);
  msort(a, tmp, 0, n);
  free(tmp);
  double s = 0;
  for (int r = 0; r < n; r++) s += (r + 1) * a[r] * a[r];
  return s + sin(a[n / 2]);
}

int main(void) {
  int sizes[] = {1, 2, 7, 16, 23};
  for (int t = 0; t < 5; t++) {
    int n = sizes[t];
    double x0[32], x[32], dx[32] = {0}, e[32];
    for (int i = 0; i < n; i++) x0[i] = x[i] = sin(2.3 * i + 0.4) * (1 + 0.1 * i);
    __parad_autodiff((void *)sorted_energy, x, dx, parad_const, n);
    for (int k = 0; k < n; k++) {
      int rank = 0;
      for (int j = 0; j < n; j++) rank += x0[j] < x0[k];
      CHECK_CLOSE(x[rank], x0[k], 0);
      CHECK_CLOSE(dx[k], 2 * (rank + 1) * x0[k] + (rank == n / 2 ? cos(x0[k]) : 0), 1e-12);
      double x2[32];
      for (int i = 0; i < n; i++) x2[i] = x0[i], e[i] = i == k;
      CHECK_CLOSE(dx[k], __parad_fwddiff((void *)sorted_energy, x2, e, parad_const, n), 1e-12);
    }
  }
  return check_done();
}
