// Multidimensional array parameters: a function taking `double a[][N]` (a pointer to arrays of a fixed
// length) and one taking a variable-length array parameter `double m[n][n]` (the row stride is a runtime
// value), both duplicated with shadows of the same shape. The first computes a weighted sum of A[i][j] A[j][i]
// plus sin of the diagonal, the second a quadratic form x^T M x with M written back (M <- M^2 elementwise). Analytic
// tangents (tolerance 1e-12), and the written-back shadow of M.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

enum { N = 4 };

/* f(A) = sum_{i,j} A[i][j] * A[j][i] * (1 + i) + sum_i sin(A[i][i]) */
__attribute__((noinline)) static double fixed(double a[][N], int rows) {
  double s = 0;
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < N; j++) s += a[i][j] * a[j][i] * (1 + i);
    s += sin(a[i][i]);
  }
  return s;
}

/* g(M, x) = x^T M x, then M[i][j] <- M[i][j]^2 */
__attribute__((noinline)) static double vla(int n, double m[n][n], const double *x) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) s += x[i] * m[i][j] * x[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) m[i][j] *= m[i][j];
  return s;
}

int main(int argc, char **argv) {
  (void)argv;
  double a[N][N], da[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) a[i][j] = cos(i + 2.0 * j) + 0.1 * i;
  for (int p = 0; p < N; p++)
    for (int q = 0; q < N; q++) {
      for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) da[i][j] = (i == p && j == q);
      double d = __parad_fwddiff((void *)fixed, a, da, parad_const, N);
      /* d/dA[p][q]: from (i,j) = (p,q): A[q][p](1+p); from (i,j) = (q,p): A[q][p](1+q); diagonal sin */
      double want = a[q][p] * (1 + p) + a[q][p] * (1 + q) + (p == q ? cos(a[p][p]) : 0);
      CHECK_CLOSE(d, want, 1e-12);
    }

  int n = 4 + argc; /* a runtime size: 5 */
  double m[n][n], dm[n][n], m0[n][n], dm0[n][n], x[8], dx[8];
  for (int i = 0; i < n; i++) {
    x[i] = 0.5 * i - 1, dx[i] = 0.2 * i + 0.1;
    for (int j = 0; j < n; j++) m0[i][j] = m[i][j] = sin(i * n + j), dm0[i][j] = dm[i][j] = cos(3.0 * i - j);
  }
  double d = __parad_fwddiff((void *)vla, parad_const, n, m, dm, x, dx);
  double want = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) want += dx[i] * m0[i][j] * x[j] + x[i] * dm0[i][j] * x[j] + x[i] * m0[i][j] * dx[j];
  CHECK_CLOSE(d, want, 1e-12);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      CHECK_CLOSE(m[i][j], m0[i][j] * m0[i][j], 1e-15);
      CHECK_CLOSE(dm[i][j], 2 * m0[i][j] * dm0[i][j], 1e-12);
    }
  return check_done();
}
