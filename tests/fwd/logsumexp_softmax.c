// Numerically stable log-sum-exp: a running maximum (data-dependent select/branch on active values)
// and a rescaled running sum. Its gradient is softmax(x); each basis tangent is checked against the
// analytic softmax (tolerance 1e-12), including inputs large enough that the unshifted exp overflows.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double logsumexp(const double *x, int n) {
  double m = -INFINITY, s = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > m) { /* new maximum: rescale what was summed so far */
      s = s * exp(m - x[i]) + 1;
      m = x[i];
    } else {
      s += exp(x[i] - m);
    }
  }
  return m + log(s);
}

static void run(const double *x, int n, double tol) {
  double mx = x[0];
  for (int i = 1; i < n; i++) mx = fmax(mx, x[i]);
  double z = 0;
  for (int i = 0; i < n; i++) z += exp(x[i] - mx);
  for (int k = 0; k < n; k++) {
    double dx[16] = {0};
    dx[k] = 1;
    double d = __parad_fwddiff((void *)logsumexp, x, dx, parad_const, n);
    CHECK_CLOSE(d, exp(x[k] - mx) / z, tol);
  }
}

int main(void) {
  double a[7] = {0.1, 1.5, -0.3, 2.7, 2.0, -4.0, 0.9};
  run(a, 7, 1e-12);
  double big[5] = {800, 801.5, 799, 803, 790}; /* exp(803) overflows without the shift */
  run(big, 5, 1e-12);
  return check_done();
}
