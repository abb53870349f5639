// Nested loops over a matrix: y = A x with A active too; the tangent of y_i is dA_i . x + A_i . dx.
// Checked against that formula (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include "check.h"

void __parad_fwddiff(void *, ...);

__attribute__((noinline)) static void matvec(int m, int n, const double *a, const double *x, double *y) {
  for (int i = 0; i < m; i++) {
    double s = 0;
    for (int j = 0; j < n; j++) s += a[i * n + j] * x[j];
    y[i] = s * s;
  }
}

int main(void) {
  enum { M = 5, N = 7 };
  double a[M * N], da[M * N], x[N], dx[N], y[M], dy[M];
  for (int i = 0; i < M * N; i++) a[i] = 0.1 * i - 1, da[i] = (i % 3) - 1;
  for (int j = 0; j < N; j++) x[j] = 0.3 * j, dx[j] = 1.0 / (j + 1);
  __parad_fwddiff((void *)matvec, parad_const, M, parad_const, N, a, da, x, dx, y, dy);
  for (int i = 0; i < M; i++) {
    double s = 0, ds = 0;
    for (int j = 0; j < N; j++) s += a[i * N + j] * x[j], ds += da[i * N + j] * x[j] + a[i * N + j] * dx[j];
    CHECK_CLOSE(dy[i], 2 * s * ds, 1e-12);
  }
  return check_done();
}
