// Vector mode with width 8: the full 8-column Jacobian of an R^8 -> R function (returned as a struct of
// 8 doubles, through memory) and of an R^8 -> R^2 map writing an output array (8 output shadows) in one
// call each. Every entry against the analytic Jacobian (tolerance 1e-12), and lanes must not mix: a
// scaled, permuted set of directions gives the correspondingly scaled, permuted columns.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

typedef struct { double d[8]; } V8;
V8 __parad_fwddiff8(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 8 };

/* f(x) = sum_i x_i^2 x_{i+1} + exp(x_0 x_7) + sin(sum_i i x_i) */
__attribute__((noinline)) static double f(const double *x) {
  double s = 0, lin = 0;
  for (int i = 0; i + 1 < N; i++) s += x[i] * x[i] * x[i + 1];
  for (int i = 0; i < N; i++) lin += i * x[i];
  return s + exp(x[0] * x[7]) + sin(lin);
}

static double df(const double *x, int k) {
  double lin = 0, g = 0;
  for (int i = 0; i < N; i++) lin += i * x[i];
  if (k + 1 < N) g += 2 * x[k] * x[k + 1];
  if (k > 0) g += x[k - 1] * x[k - 1];
  if (k == 0) g += x[7] * exp(x[0] * x[7]);
  if (k == 7) g += x[0] * exp(x[0] * x[7]);
  return g + k * cos(lin);
}

/* g(x) = (sum_i x_i^3 / (1 + i), log(1 + sum_i x_i^2)) */
__attribute__((noinline)) static void g(const double *x, double *out) {
  double a = 0, b = 1;
  for (int i = 0; i < N; i++) a += x[i] * x[i] * x[i] / (1 + i), b += x[i] * x[i];
  out[0] = a;
  out[1] = log(b);
}

int main(void) {
  double x[N], e[N][N] = {{0}};
  for (int i = 0; i < N; i++) x[i] = 0.3 * i - 1.0 + 0.05 * i * i, e[i][i] = 1;
  V8 j = __parad_fwddiff8((void *)f, parad_width, 8, x, e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]);
  for (int k = 0; k < N; k++) CHECK_CLOSE(j.d[k], df(x, k), 1e-12);

  /* lane k gets direction (k + 1) * e_{7-k} */
  double p[N][N] = {{0}};
  for (int k = 0; k < N; k++) p[k][7 - k] = k + 1;
  V8 q = __parad_fwddiff8((void *)f, parad_width, 8, x, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
  for (int k = 0; k < N; k++) CHECK_CLOSE(q.d[k], (k + 1) * df(x, 7 - k), 1e-12);

  double out[2], jo[N][2] = {{0}};
  __parad_fwddiff((void *)g, parad_width, 8, x, e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7], out, jo[0], jo[1],
                  jo[2], jo[3], jo[4], jo[5], jo[6], jo[7]);
  double b = 1;
  for (int i = 0; i < N; i++) b += x[i] * x[i];
  CHECK_CLOSE(out[1], log(b), 1e-15);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(jo[k][0], 3 * x[k] * x[k] / (1 + k), 1e-12);
    CHECK_CLOSE(jo[k][1], 2 * x[k] / b, 1e-12);
  }
  return check_done();
}
