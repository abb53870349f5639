// Triply nested loops with a triangular bound: C = A B (A is M x P, B is P x N, both active), then
// f = sum_{j <= i} w_ij C_ij^2 + sum_i sin(C_ii). The gradients land in the shadows of A and B: checked
// against the analytic gradient dA = G B^T, dB = A^T G with G_ij = 2 w_ij C_ij (+ cos C_ii on the diagonal)
// (tolerance 1e-12, rounding only), and against the forward tangent along every unit direction of A and
// of B (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { M = 4, P = 3, N = 5 };

__attribute__((noinline)) static double tri(const double *a, const double *b, int m, int p, int n) {
  double s = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j <= i && j < n; j++) {
      double c = 0;
      for (int k = 0; k < p; k++) c += a[i * p + k] * b[k * n + j];
      s += (1 + 0.5 * i - 0.25 * j) * c * c;
      if (i == j) s += sin(c);
    }
  return s;
}

int main(void) {
  double a[M * P], b[P * N], da[M * P] = {0}, db[P * N] = {0};
  for (int i = 0; i < M * P; i++) a[i] = sin(0.7 * i) + 0.1;
  for (int i = 0; i < P * N; i++) b[i] = cos(1.3 * i) - 0.2;
  __parad_autodiff((void *)tri, a, da, b, db, parad_const, M, parad_const, P, parad_const, N);
  double ga[M * P] = {0}, gb[P * N] = {0};
  for (int i = 0; i < M; i++)
    for (int j = 0; j <= i && j < N; j++) {
      double c = 0;
      for (int k = 0; k < P; k++) c += a[i * P + k] * b[k * N + j];
      double g = 2 * (1 + 0.5 * i - 0.25 * j) * c + (i == j ? cos(c) : 0);
      for (int k = 0; k < P; k++) ga[i * P + k] += g * b[k * N + j], gb[k * N + j] += g * a[i * P + k];
    }
  double ea[M * P], eb[P * N];
  for (int q = 0; q < M * P; q++) {
    CHECK_CLOSE(da[q], ga[q], 1e-12);
    for (int i = 0; i < M * P; i++) ea[i] = i == q;
    for (int i = 0; i < P * N; i++) eb[i] = 0;
    CHECK_CLOSE(da[q], __parad_fwddiff((void *)tri, a, ea, b, eb, parad_const, M, parad_const, P, parad_const, N), 1e-12);
  }
  for (int q = 0; q < P * N; q++) {
    CHECK_CLOSE(db[q], gb[q], 1e-12);
    for (int i = 0; i < M * P; i++) ea[i] = 0;
    for (int i = 0; i < P * N; i++) eb[i] = i == q;
    CHECK_CLOSE(db[q], __parad_fwddiff((void *)tri, a, ea, b, eb, parad_const, M, parad_const, P, parad_const, N), 1e-12);
  }
  return check_done();
}
