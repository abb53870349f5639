// Globals and conversions in reverse mode: a constant coefficient table and a global the function only
// reads are inactive; float <-> double conversions carry adjoints (fptrunc / fpext), conversions to and
// from integers (a bucket index, a step) carry none; a global int counter is updated. Analytic gradients
// (tolerance 1e-6 where a float rounding is in the path, 1e-12 otherwise) and forward tangents along each
// unit direction (same tolerances: the two modes round float adjoints and tangents differently).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

typedef struct { double dx, dy; } G2;
double __parad_autodiff(void *, ...);
G2 __parad_autodiff2(void *, ...);
double __parad_fwddiff(void *, ...);

static const double coeff[5] = {1, -0.5, 0.25, -0.125, 0.0625};
double scale = 2.0; /* read only: constant */
int evaluations;

__attribute__((noinline)) static double horner(double x) {
  double r = 0;
  for (int i = 4; i >= 0; i--) r = r * x + coeff[i];
  evaluations++;
  return scale * r;
}

__attribute__((noinline)) static double mixed(double x, double y) {
  float f = (float)x;          /* fptrunc */
  float g = f * (float)y + 1;  /* float arithmetic */
  double back = g * 3.0;       /* fpext */
  int k = (int)(x * 10);       /* fptosi: no derivative */
  double step = k / 10.0;      /* sitofp: constant */
  return back * x + step * y + coeff[k & 3] * y * y;
}

__attribute__((noinline)) static double table_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    int bucket = (int)floor(x[i] * 2) & 3; /* an index computed from an active value */
    s += coeff[bucket] * x[i] * x[i] + scale * (float)x[i];
  }
  return s;
}

int main(void) {
  for (double x = -1; x <= 1; x += 0.4) {
    double want = 0;
    for (int i = 1; i < 5; i++) want += i * coeff[i] * pow(x, i - 1);
    double d = __parad_autodiff((void *)horner, x);
    CHECK_CLOSE(d, scale * want, 1e-12);
    CHECK_CLOSE(d, __parad_fwddiff((void *)horner, x, 1.0), 1e-12);
    double y = 0.3 - 0.5 * x;
    G2 g = __parad_autodiff2((void *)mixed, x, y);
    int k = (int)(x * 10);
    CHECK_CLOSE(g.dx, 6 * x * y + 3, 1e-6);
    CHECK_CLOSE(g.dy, 3 * x * x + k / 10.0 + 2 * coeff[k & 3] * y, 1e-6);
    CHECK_CLOSE(g.dx, __parad_fwddiff((void *)mixed, x, 1.0, y, 0.0), 1e-6);
    CHECK_CLOSE(g.dy, __parad_fwddiff((void *)mixed, x, 0.0, y, 1.0), 1e-6);
  }
  CHECK_CLOSE(evaluations, 12, 0); /* six gradients and six tangents, each runs the primal once */
  double x[6] = {-0.9, -0.4, 0.1, 0.6, 1.2, 1.7}, dx[6] = {0}, e[6];
  __parad_autodiff((void *)table_sum, x, dx, parad_const, 6);
  for (int k = 0; k < 6; k++) {
    int bucket = (int)floor(x[k] * 2) & 3;
    CHECK_CLOSE(dx[k], 2 * coeff[bucket] * x[k] + scale, 1e-12); /* d(float)x/dx = 1 exactly */
    for (int i = 0; i < 6; i++) e[i] = i == k;
    CHECK_CLOSE(dx[k], __parad_fwddiff((void *)table_sum, x, e, parad_const, 6), 1e-12);
  }
  return check_done();
}
