// Composite Simpson integration of g(t; p, q) = exp(-p t^2) sin(q t + 1) / (1 + t) over [0, 1] in reverse
// mode, with the integrand and the rule in separate non-inlined functions (a callee's reverse called
// once per node), and an outer function combining three integrals nonlinearly. The gradient of one
// integral with respect to (p, q) equals Simpson applied to the analytic dg/dp, dg/dq (tolerance 1e-12:
// differentiation commutes with a fixed rule); the outer gradient against central finite differences
// (h = 1e-6, tolerance 1e-7); both against forward tangents along each unit direction (1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

typedef struct { double dp, dq; } G2;
G2 __parad_autodiff2(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double g(double t, double p, double q) { return exp(-p * t * t) * sin(q * t + 1) / (1 + t); }

__attribute__((noinline)) static double simpson(double p, double q, int m) { /* m even */
  double h = 1.0 / m, s = g(0, p, q) + g(1, p, q);
  for (int i = 1; i < m; i++) s += (i % 2 ? 4 : 2) * g(i * h, p, q);
  return s * h / 3;
}

static double outer(double p, double q) {
  return simpson(p, q, 20) * simpson(p * p, q, 40) + log(1 + simpson(2 * p, q * q, 10));
}

static double fd_p(void *ctx, double p) { return outer(p, *(double *)ctx); }
static double fd_q(void *ctx, double q) { return outer(*(double *)ctx, q); }

int main(void) {
  for (double p = 0.4; p < 3; p += 0.9) {
    double q = 1.7 - 0.3 * p;
    G2 d = __parad_autodiff2((void *)simpson, p, q, 30);
    double h = 1.0 / 30, wp = 0, wq = 0;
    for (int i = 0; i <= 30; i++) {
      double t = i * h, c = i == 0 || i == 30 ? 1 : i % 2 ? 4 : 2;
      double e = exp(-p * t * t) / (1 + t);
      wp += c * -t * t * e * sin(q * t + 1);
      wq += c * e * t * cos(q * t + 1);
    }
    CHECK_CLOSE(d.dp, wp * h / 3, 1e-12);
    CHECK_CLOSE(d.dq, wq * h / 3, 1e-12);
    CHECK_CLOSE(d.dp, __parad_fwddiff((void *)simpson, p, 1.0, q, 0.0, 30), 1e-12);
    CHECK_CLOSE(d.dq, __parad_fwddiff((void *)simpson, p, 0.0, q, 1.0, 30), 1e-12);
    G2 o = __parad_autodiff2((void *)outer, p, q);
    CHECK_CLOSE(o.dp, fd_central(fd_p, &q, p, 1e-6), 1e-7);
    CHECK_CLOSE(o.dq, fd_central(fd_q, &p, q, 1e-6), 1e-7);
    CHECK_CLOSE(o.dp, __parad_fwddiff((void *)outer, p, 1.0, q, 0.0), 1e-12);
    CHECK_CLOSE(o.dq, __parad_fwddiff((void *)outer, p, 0.0, q, 1.0), 1e-12);
  }
  return check_done();
}
