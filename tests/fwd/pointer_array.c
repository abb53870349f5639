// Arrays of pointers: the shadow of a pointer array holds shadow pointers. Rows of a jagged matrix are
// reached through a double** and rows are swapped through it. Analytic tangents (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include "check.h"

double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double rows_product(double **rows, const int *len, int n) {
  double *tmp = rows[0]; /* swap the first and last row pointers */
  rows[0] = rows[n - 1];
  rows[n - 1] = tmp;
  double s = 0;
  for (int r = 0; r < n; r++)
    for (int j = 0; j < len[r]; j++) s += (r + 1) * rows[r][j] * rows[r][j];
  return s;
}

int main(void) {
  double r0[2] = {1, 2}, r1[3] = {3, 4, 5}, r2[2] = {6, 7};
  double d0[2] = {1, 0}, d1[3] = {0, 0, 1}, d2[2] = {1, 0};
  double *rows[3] = {r0, r1, r2}, *drows[3] = {d0, d1, d2};
  int len[3] = {2, 3, 2}; /* per position: the first and last rows, swapped, have the same length */
  double d = __parad_fwddiff((void *)rows_product, rows, drows, parad_const, len, parad_const, 3);
  /* after the swap row 0 is r2 (weight 1), row 2 is r0 (weight 3); len stays per position */
  /* s = 1*(r2 . r2) + 2*(r1 . r1) + 3*(r0 . r0); the direction moves r2[0], r1[2] and r0[0] */
  CHECK_CLOSE(d, 2 * 6.0 * 1 + 2 * 2 * 5.0 * 1 + 3 * 2 * 1.0 * 1, 1e-12);
  /* the shadow pointer array was swapped alongside */
  CHECK_CLOSE(drows[0] == d2 && drows[2] == d0, 1.0, 0);
  return check_done();
}
