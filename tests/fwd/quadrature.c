// Composite Simpson integration of g(t, p) = exp(-p t^2) sin(p t + 1) / (1 + t) over [0, 1], with
// the integrand and the quadrature in separate non-inlined functions (nested calls with an active
// parameter), and an outer function combining two integrals nonlinearly. The tangent with respect to p
// is checked against central finite differences (h = 1e-6, tolerance 1e-7) and, for the single integral,
// against Simpson applied to the analytic dg/dp (tolerance 1e-12: differentiation commutes with the
// fixed quadrature rule).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double g(double t, double p) { return exp(-p * t * t) * sin(p * t + 1) / (1 + t); }

static double dg_dp(double t, double p) {
  return (-t * t * exp(-p * t * t) * sin(p * t + 1) + exp(-p * t * t) * t * cos(p * t + 1)) / (1 + t);
}

__attribute__((noinline)) static double simpson(double p, int m) { /* m even */
  double h = 1.0 / m, s = g(0, p) + g(1, p);
  for (int i = 1; i < m; i++) s += (i % 2 ? 4 : 2) * g(i * h, p);
  return s * h / 3;
}

static double outer(double p) { return simpson(p, 20) * simpson(p * p, 40) + log(1 + simpson(2 * p, 10)); }

static double fd_outer(void *ctx, double p) {
  (void)ctx;
  return outer(p);
}
static double fd_simpson(void *ctx, double p) {
  (void)ctx;
  return simpson(p, 30);
}

int main(void) {
  for (double p = 0.4; p < 3; p += 0.9) {
    double d = __parad_fwddiff((void *)simpson, p, 1.0, 30);
    double h = 1.0 / 30, want = dg_dp(0, p) + dg_dp(1, p);
    for (int i = 1; i < 30; i++) want += (i % 2 ? 4 : 2) * dg_dp(i * h, p);
    want *= h / 3;
    CHECK_CLOSE(d, want, 1e-12);
    CHECK_CLOSE(d, fd_central(fd_simpson, 0, p, 1e-6), 1e-7);
    CHECK_CLOSE(__parad_fwddiff((void *)outer, p, 1.0), fd_central(fd_outer, 0, p, 1e-6), 1e-7);
  }
  return check_done();
}
