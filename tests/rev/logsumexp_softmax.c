// Numerically stable log-sum-exp in reverse mode: a running maximum chosen by branches on active values
// and a rescaled running sum (the accumulator is overwritten every iteration). The gradient is softmax(x),
// checked against the analytic value (tolerance 1e-12, rounding only) including inputs large enough that
// the unshifted exp overflows, and against the forward tangent along every unit direction (1e-12). A
// cross-entropy loss built on it (softmax written to an output array, then a weighted log) checks the
// output-array path: gradient p - y for a one-hot y.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double logsumexp(const double *x, int n) {
  double m = -INFINITY, s = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > m) {
      s = s * exp(m - x[i]) + 1;
      m = x[i];
    } else {
      s += exp(x[i] - m);
    }
  }
  return m + log(s);
}

__attribute__((noinline)) static double cross_entropy(const double *x, double *p, int n, int label) {
  double l = logsumexp(x, n);
  for (int i = 0; i < n; i++) p[i] = exp(x[i] - l);
  return -log(p[label]);
}

static void run(const double *x, int n) {
  double mx = x[0];
  for (int i = 1; i < n; i++) mx = fmax(mx, x[i]);
  double z = 0;
  for (int i = 0; i < n; i++) z += exp(x[i] - mx);
  double dx[16] = {0}, e[16];
  __parad_autodiff((void *)logsumexp, x, dx, parad_const, n);
  for (int k = 0; k < n; k++) {
    CHECK_CLOSE(dx[k], exp(x[k] - mx) / z, 1e-12);
    for (int i = 0; i < n; i++) e[i] = i == k;
    CHECK_CLOSE(dx[k], __parad_fwddiff((void *)logsumexp, x, e, parad_const, n), 1e-12);
  }
  for (int label = 0; label < n; label += 2) {
    double p[16], dp[16] = {0}, g[16] = {0};
    __parad_autodiff((void *)cross_entropy, x, g, p, dp, parad_const, n, parad_const, label);
    for (int k = 0; k < n; k++) {
      CHECK_CLOSE(g[k], exp(x[k] - mx) / z - (k == label), 1e-12);
      double p2[16], dp2[16];
      for (int i = 0; i < n; i++) e[i] = i == k;
      CHECK_CLOSE(g[k], __parad_fwddiff((void *)cross_entropy, x, e, p2, dp2, parad_const, n, parad_const, label), 1e-12);
    }
  }
}

int main(void) {
  double a[7] = {0.1, 1.5, -0.3, 2.7, 2.0, -4.0, 0.9};
  run(a, 7);
  double big[5] = {800, 801.5, 799, 803, 790}; /* exp(803) overflows without the shift */
  run(big, 5);
  return check_done();
}
