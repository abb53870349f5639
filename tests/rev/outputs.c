// A function writing an output array: the caller seeds the output's shadow with the adjoint it wants
// (here one row of the Jacobian at a time) and receives the input's gradient. y = A x with both A and x
// active, then y_i squared in place. Analytic Jacobian rows (tolerance 1e-12); the output shadow is
// consumed (reset to zero) as the reverse sweep passes.
// RUN: %parad-cc %cflags %s -o %t && %t
#include "check.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

__attribute__((noinline)) static void matvec_sq(int m, int n, const double *a, const double *x, double *y) {
  for (int i = 0; i < m; i++) {
    double s = 0;
    for (int j = 0; j < n; j++) s += a[i * n + j] * x[j];
    y[i] = s;
  }
  for (int i = 0; i < m; i++) y[i] = y[i] * y[i];
}

int main(void) {
  enum { M = 4, N = 5 };
  double a[M * N], x[N], y[M];
  for (int i = 0; i < M * N; i++) a[i] = 0.1 * i - 0.7;
  for (int j = 0; j < N; j++) x[j] = 0.3 * j - 0.4;
  for (int r = 0; r < M; r++) {
    double da[M * N] = {0}, dx[N] = {0}, dy[M] = {0};
    dy[r] = 1;
    __parad_autodiff((void *)matvec_sq, parad_const, M, parad_const, N, a, da, x, dx, y, dy);
    double s = 0;
    for (int j = 0; j < N; j++) s += a[r * N + j] * x[j];
    for (int j = 0; j < N; j++) CHECK_CLOSE(dx[j], 2 * s * a[r * N + j], 1e-12);
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) CHECK_CLOSE(da[i * N + j], i == r ? 2 * s * x[j] : 0.0, 1e-12);
    for (int i = 0; i < M; i++) CHECK_CLOSE(dy[i], 0.0, 0);
    /* row r of the Jacobian, one forward tangent per input direction */
    for (int q = 0; q < N + M * N; q++) {
      double ta[M * N] = {0}, tx[N] = {0}, ty[M];
      if (q < N) tx[q] = 1; else ta[q - N] = 1;
      __parad_fwddiff((void *)matvec_sq, parad_const, M, parad_const, N, a, ta, x, tx, y, ty);
      CHECK_CLOSE(q < N ? dx[q] : da[q - N], ty[r], 1e-12);
    }
  }
  return check_done();
}
