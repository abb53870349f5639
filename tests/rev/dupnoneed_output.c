// parad_dupnoneed output buffers in reverse mode: the caller does not need the primal values stored
// through them, only passes their shadows seeded with the adjoint it wants. Rows of the Jacobian of a
// polar-coordinate map (analytic, tolerance 1e-12), and a map that writes its output, reads it back and
// overwrites it (the values it reads must still be the right ones). Every gradient against the forward
// tangents along each unit direction (tolerance 1e-12); the output shadows are consumed (reset to 0).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_autodiff_d(void *, ...);
void __parad_fwddiff(void *, ...);

__attribute__((noinline)) static void polar(const double *in, double *out) {
  double r = sqrt(in[0] * in[0] + in[1] * in[1]);
  out[0] = r;
  out[1] = atan2(in[1], in[0]);
  out[2] = r * exp(-in[0]);
}

__attribute__((noinline)) static void smooth_out(double *out, const double *v, int n, double s) {
  for (int i = 0; i < n; i++) out[i] = s * v[i] * v[i];
  for (int i = 1; i < n; i++) out[i] = out[i] * out[i - 1] + s; /* reads back what it wrote */
}

int main(void) {
  double in[2] = {1.2, -0.7}, x = in[0], y = in[1], r = sqrt(x * x + y * y);
  double jac[3][2] = {{x / r, y / r}, {-y / (r * r), x / (r * r)}, {(x / r - r) * exp(-x), y / r * exp(-x)}};
  for (int row = 0; row < 3; row++) {
    double din[2] = {0, 0}, out[3], dout[3] = {0, 0, 0};
    dout[row] = 1;
    __parad_autodiff((void *)polar, in, din, parad_dupnoneed, out, dout);
    for (int k = 0; k < 2; k++) {
      CHECK_CLOSE(din[k], jac[row][k], 1e-12);
      double e[2] = {k == 0, k == 1}, o2[3], t[3];
      __parad_fwddiff((void *)polar, in, e, parad_dupnoneed, o2, t);
      CHECK_CLOSE(din[k], t[row], 1e-12);
    }
    for (int i = 0; i < 3; i++) CHECK_CLOSE(dout[i], 0.0, 0);
  }

  enum { N = 5 };
  double v[N] = {0.5, -1, 0.8, 0.3, 1.1}, s = 1.5, seed[N] = {0.2, -0.1, 0.5, 1.0, 0.3};
  double o[N], dout[N], dv[N] = {0};
  for (int i = 0; i < N; i++) dout[i] = seed[i];
  double ds = __parad_autodiff_d((void *)smooth_out, parad_dupnoneed, o, dout, v, dv, parad_const, N, s);
  for (int k = 0; k <= N; k++) {
    double e[N], o2[N], t[N], dot = 0;
    for (int i = 0; i < N; i++) e[i] = i == k;
    __parad_fwddiff((void *)smooth_out, parad_dupnoneed, o2, t, v, e, parad_const, N, s, (double)(k == N));
    for (int i = 0; i < N; i++) dot += seed[i] * t[i];
    CHECK_CLOSE(k < N ? dv[k] : ds, dot, 1e-12);
  }
  /* out[0] = s v0^2: its row alone, analytically */
  double dv0[N] = {0}, d0[N] = {1, 0, 0, 0, 0};
  double ds0 = __parad_autodiff_d((void *)smooth_out, parad_dupnoneed, o, d0, v, dv0, parad_const, N, s);
  CHECK_CLOSE(dv0[0], 2 * s * v[0], 1e-12);
  CHECK_CLOSE(ds0, v[0] * v[0], 1e-12);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dout[i] + d0[i], 0.0, 0);
  return check_done();
}
