// Four active scalar parameters whose gradients come back as a struct of four doubles, in parameter order,
// with a duplicated array and a constant integer between them and a constant scalar skipped (parad_const):
// the struct then has one field fewer. A Gaussian-bump model evaluated on a grid held in an array,
// f = sum_i w_i A exp(-(t_i - mu)^2 / (2 s^2)) + c t_i, plus the array's gradient. Analytic gradients
// (tolerance 1e-12, rounding only) and forward tangents along every unit direction (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

typedef struct { double dA, dmu, ds, dc; } G4;
typedef struct { double dA, dmu, dc; } G3;
G4 __parad_autodiff4(void *, ...);
G3 __parad_autodiff3(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double bump(double A, const double *w, double mu, int n, double s, double c) {
  double f = 0;
  for (int i = 0; i < n; i++) {
    double t = 0.25 * i, z = (t - mu) / s;
    f += w[i] * A * exp(-0.5 * z * z) + c * t * w[i];
  }
  return f;
}

enum { N = 9 };

int main(void) {
  double w[N], dw[N] = {0}, A = 1.7, mu = 0.9, s = 0.6, c = -0.3;
  for (int i = 0; i < N; i++) w[i] = 1 + 0.1 * i * i;
  G4 g = __parad_autodiff4((void *)bump, A, w, dw, mu, parad_const, N, s, c);
  double wA = 0, wmu = 0, ws = 0, wc = 0;
  for (int i = 0; i < N; i++) {
    double t = 0.25 * i, z = (t - mu) / s, e = exp(-0.5 * z * z);
    wA += w[i] * e, wmu += w[i] * A * e * z / s, ws += w[i] * A * e * z * z / s, wc += t * w[i];
    CHECK_CLOSE(dw[i], A * e + c * t, 1e-12);
  }
  CHECK_CLOSE(g.dA, wA, 1e-12);
  CHECK_CLOSE(g.dmu, wmu, 1e-12);
  CHECK_CLOSE(g.ds, ws, 1e-12);
  CHECK_CLOSE(g.dc, wc, 1e-12);
  double got[4] = {g.dA, g.dmu, g.ds, g.dc}, z[N] = {0}, e[N];
  for (int k = 0; k < 4; k++)
    CHECK_CLOSE(got[k], __parad_fwddiff((void *)bump, A, (double)(k == 0), w, z, mu, (double)(k == 1), parad_const, N,
                                        s, (double)(k == 2), c, (double)(k == 3)), 1e-12);
  for (int k = 0; k < N; k++) {
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(dw[k], __parad_fwddiff((void *)bump, A, 0.0, w, e, mu, 0.0, parad_const, N, s, 0.0, c, 0.0), 1e-12);
  }
  /* s constant: three gradients, the others unchanged; w constant too */
  G3 h = __parad_autodiff3((void *)bump, A, parad_const, w, mu, parad_const, N, parad_const, s, c);
  CHECK_CLOSE(h.dA, g.dA, 1e-12);
  CHECK_CLOSE(h.dmu, g.dmu, 1e-12);
  CHECK_CLOSE(h.dc, g.dc, 1e-12);
  return check_done();
}
