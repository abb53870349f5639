// Arrays of pointers in reverse mode: the shadow of a double** holds shadow pointers; rows swapped
// through the pointer array keep their shadows in step. Analytic gradients (tolerance 1e-12), and the
// forward tangent along every unit direction of the rows (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double rows_product(double **rows, const int *len, int n) {
  double *tmp = rows[0];
  rows[0] = rows[n - 1];
  rows[n - 1] = tmp;
  double s = 0;
  for (int r = 0; r < n; r++)
    for (int j = 0; j < len[r]; j++) s += (r + 1) * rows[r][j] * rows[r][j];
  return s;
}

int main(void) {
  double r0[2] = {1, 2}, r1[3] = {3, 4, 5}, r2[1] = {6};
  double d0[2] = {0}, d1[3] = {0}, d2[1] = {0};
  double *rows[3] = {r0, r1, r2}, *drows[3] = {d0, d1, d2};
  int len[3] = {1, 3, 1};
  __parad_autodiff((void *)rows_product, rows, drows, parad_const, len, parad_const, 3);
  /* after the swap: row 0 is r2 (weight 1), row 1 is r1 (weight 2), row 2 is r0 (weight 3, one element) */
  CHECK_CLOSE(d2[0], 2 * 6.0 * 1, 1e-12);
  CHECK_CLOSE(d1[0], 2 * 3.0 * 2, 1e-12);
  CHECK_CLOSE(d1[2], 2 * 5.0 * 2, 1e-12);
  CHECK_CLOSE(d0[0], 2 * 1.0 * 3, 1e-12);
  CHECK_CLOSE(d0[1], 0.0, 1e-12);
  /* forward: every call swaps two entries of rows[], so the original order is restored before each */
  double *grad[6] = {&d0[0], &d0[1], &d1[0], &d1[1], &d1[2], &d2[0]};
  for (int q = 0; q < 6; q++) {
    double t0[2] = {0}, t1[3] = {0}, t2[1] = {0};
    double *trows[3] = {t0, t1, t2}, *tangent[6] = {&t0[0], &t0[1], &t1[0], &t1[1], &t1[2], &t2[0]};
    *tangent[q] = 1;
    rows[0] = r0, rows[2] = r2;
    CHECK_CLOSE(*grad[q], __parad_fwddiff((void *)rows_product, rows, trows, parad_const, len, parad_const, 3), 1e-12);
  }
  return check_done();
}
