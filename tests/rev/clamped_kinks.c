// Clamped inputs where the function is flat: a contact energy pow(fmax(d, 0), 2.5) (Hertz) and
// sqrt(m) m with m = fmax(x, 0), evaluated where the clamp holds (x < 0), and where it does not. The
// derivative of the result reaching the clamped side is infinite or NaN (sqrt at 0; -ffast-math makes
// pow(m, 2.5) m m sqrt(m) before differentiating), and fmax multiplied it by its partial 0: NaN, in
// reverse mode at -O2 and in both modes with -ffast-math, where the answer is 0. fmin and fmax now pass
// a derivative to the argument they chose only, and sqrt, cbrt, pow and the inverse functions with
// infinite partials pass on a derivative of exactly zero as zero.
//   hertz(x) = sum_i (1 + 0.1 i) pow(fmax(1 - |x_{i+1} - x_i|, 0), 2.5): two of four pairs overlap
//   root(x)  = sqrt(fmax(x, 0)) fmax(x, 0)          = 0 for x <= 0, 1.5 sqrt(x) for x > 0
// Gradients against tangents along each unit direction (1e-12) and central differences (h 1e-6, 1e-6);
// root' against 0 and 1.5 sqrt(x) (1e-12). At -O2, with -ffast-math at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc %cflags -ffast-math %s -o %tf -lm && %tf
// RUN: %parad-cc -O0 -ffast-math -I%S/../include %s -o %tf0 -lm && %tf0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 5 };

/* beads on a line, radius 0.5: pairs closer than 1 overlap by d = 1 - gap */
static double hertz(const double *x) {
  double e = 0;
  for (int i = 0; i + 1 < N; i++) {
    double d = 1.0 - fabs(x[i + 1] - x[i]);
    e += (1 + 0.1 * i) * pow(fmax(d, 0.0), 2.5);
  }
  return e;
}

static double root(double x) {
  double m = fmax(x, 0.0);
  return sqrt(m) * m;
}

int main(void) {
  double x[N] = {0.0, 0.9, 2.2, 2.95, 4.5}; /* pairs 0-1 and 2-3 in contact */
  CHECK_GRADIENT(hertz, x, N, 1e-12, 1e-6, 1e-6);
  const double at[3] = {-1.0, -0.25, 0.64};
  for (int k = 0; k < 3; k++) {
    double want = at[k] > 0 ? 1.5 * sqrt(at[k]) : 0;
    CHECK_CLOSE(__parad_autodiff((void *)root, at[k]), want, 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)root, at[k], 1.0), want, 1e-12);
  }
  return check_done();
}
