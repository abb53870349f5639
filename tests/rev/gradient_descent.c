// Reverse mode called thousands of times in a loop, as an optimiser does: gradient descent on a ridge
// regression loss (3 weights, 50 samples), one __parad_autodiff per step with the shadow cleared before
// each call, every call making and releasing its own tape. After 3000 steps the weights must match the
// closed-form optimum (A^T A + lambda I) w = A^T y solved by Cramer's rule (tolerance 1e-9: the
// iteration converges geometrically far below that), and at the final point the gradient must equal the
// forward tangents along each unit direction (tolerance 1e-12) and the analytic gradient (1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { D = 3, S = 50 };

__attribute__((noinline)) static double ridge(const double *w, const double *a, const double *y, int n, double lambda) {
  double l = 0;
  for (int i = 0; i < n; i++) {
    double r = -y[i];
    for (int j = 0; j < D; j++) r += a[i * D + j] * w[j];
    l += r * r;
  }
  for (int j = 0; j < D; j++) l += lambda * w[j] * w[j];
  return l / n;
}

static double det3(double m[3][3]) {
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

int main(void) {
  double a[S * D], y[S], lambda = 0.5;
  for (int i = 0; i < S; i++) {
    for (int j = 0; j < D; j++) a[i * D + j] = sin(1.3 * i + 2.1 * j) + (j == 0);
    y[i] = 0.7 * a[i * D] - 1.2 * a[i * D + 1] + 0.4 * a[i * D + 2] + 0.1 * cos(5.0 * i);
  }
  double w[D] = {0, 0, 0}, dw[D];
  for (int it = 0; it < 3000; it++) {
    memset(dw, 0, sizeof dw);
    __parad_autodiff((void *)ridge, w, dw, parad_const, a, parad_const, y, parad_const, S, parad_const, lambda);
    for (int j = 0; j < D; j++) w[j] -= 0.3 * dw[j];
  }
  /* the optimum: M w = b with M = A^T A + lambda I, b = A^T y */
  double m[3][3], b[3];
  for (int j = 0; j < D; j++) {
    b[j] = 0;
    for (int i = 0; i < S; i++) b[j] += a[i * D + j] * y[i];
    for (int k = 0; k < D; k++) {
      m[j][k] = (j == k) * lambda;
      for (int i = 0; i < S; i++) m[j][k] += a[i * D + j] * a[i * D + k];
    }
  }
  double det = det3(m);
  for (int j = 0; j < D; j++) {
    double mj[3][3];
    memcpy(mj, m, sizeof mj);
    for (int k = 0; k < D; k++) mj[k][j] = b[k];
    CHECK_CLOSE(w[j], det3(mj) / det, 1e-9);
  }
  /* the gradient at the final point */
  double w1[D] = {w[0] + 0.1, w[1] - 0.2, w[2] + 0.3}, g[D] = {0};
  __parad_autodiff((void *)ridge, w1, g, parad_const, a, parad_const, y, parad_const, S, parad_const, lambda);
  for (int j = 0; j < D; j++) {
    double want = 2 * lambda * w1[j];
    for (int k = 0; k < D; k++) want += 2 * (m[j][k] - (j == k) * lambda) * w1[k];
    want = (want - 2 * b[j]) / S;
    CHECK_CLOSE(g[j], want, 1e-12);
    double e[D] = {j == 0, j == 1, j == 2};
    CHECK_CLOSE(g[j], __parad_fwddiff((void *)ridge, w1, e, parad_const, a, parad_const, y, parad_const, S, parad_const, lambda), 1e-12);
  }
  return check_done();
}
