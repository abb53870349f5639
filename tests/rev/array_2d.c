// Multidimensional array parameters in reverse mode: `double a[][N]` (rows of a fixed length) and a
// variable-length array parameter `double m[n][n]` (a runtime row stride), with shadows of the same shape.
// f(A) = sum_{i,j} A[i][j] A[j][i] (1 + i) + sum_i sin(A[i][i]); g(M, x) = x^T M x, then M <- M^2
// elementwise in place with M's shadow seeded as the adjoint of the new M. Analytic gradients (tolerance
// 1e-12, rounding only) and forward tangents along every unit direction (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 4 };

__attribute__((noinline)) static double fixed(double a[][N], int rows) {
  double s = 0;
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < N; j++) s += a[i][j] * a[j][i] * (1 + i);
    s += sin(a[i][i]);
  }
  return s;
}

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
  double a[N][N], da[N][N] = {{0}}, ea[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) a[i][j] = cos(i + 2.0 * j) + 0.1 * i;
  __parad_autodiff((void *)fixed, a, da, parad_const, N);
  for (int p = 0; p < N; p++)
    for (int q = 0; q < N; q++) {
      double want = a[q][p] * (1 + p) + a[q][p] * (1 + q) + (p == q ? cos(a[p][p]) : 0);
      CHECK_CLOSE(da[p][q], want, 1e-12);
      for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) ea[i][j] = (i == p && j == q);
      CHECK_CLOSE(da[p][q], __parad_fwddiff((void *)fixed, a, ea, parad_const, N), 1e-12);
    }

  int n = 4 + argc; /* a runtime size: 5 */
  double m[n][n], dm[n][n], m0[n][n], seed[n][n], x[8], dx[8] = {0};
  for (int i = 0; i < n; i++) {
    x[i] = 0.5 * i - 1;
    for (int j = 0; j < n; j++) m0[i][j] = m[i][j] = sin(i * n + j), seed[i][j] = dm[i][j] = cos(3.0 * i - j);
  }
  __parad_autodiff((void *)vla, parad_const, n, m, dm, x, dx);
  for (int i = 0; i < n; i++) {
    double want = 0;
    for (int j = 0; j < n; j++) want += (m0[i][j] + m0[j][i]) * x[j];
    CHECK_CLOSE(dx[i], want, 1e-12);
    for (int j = 0; j < n; j++) {
      CHECK_CLOSE(m[i][j], m0[i][j] * m0[i][j], 1e-15);
      CHECK_CLOSE(dm[i][j], x[i] * x[j] + 2 * m0[i][j] * seed[i][j], 1e-12);
    }
  }
  /* forward tangents: unit directions of M (with the seed contracting the new M's tangent), then of x */
  for (int k = 0; k < n * n + n; k++) {
    double m2[n][n], em[n][n], ex[8] = {0};
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) m2[i][j] = m0[i][j], em[i][j] = i * n + j == k;
    if (k >= n * n) ex[k - n * n] = 1;
    double t = __parad_fwddiff((void *)vla, parad_const, n, m2, em, x, ex);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) t += seed[i][j] * em[i][j];
    CHECK_CLOSE(k < n * n ? dm[k / n][k % n] : dx[k - n * n], t, 1e-12);
  }
  return check_done();
}
