// Vector mode (width 2) with a parad_dupnoneed output buffer: the primal values stored through it are not
// needed, only their two tangent directions. The shadows hold the Jacobian columns of the map (analytic,
// tolerance 1e-12); the duplicated input's shadows are left unchanged; a second call mixing a
// dupnoneed output with a parad_const scalar and a duplicated float argument.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

void __parad_fwddiff(void *, ...);

__attribute__((noinline)) static void polar(const double *in, double *out) {
  double r = sqrt(in[0] * in[0] + in[1] * in[1]);
  out[0] = r;
  out[1] = atan2(in[1], in[0]);
  out[2] = r * exp(-in[0]);
}

__attribute__((noinline)) static void scaled(double *out, const double *v, int n, double s) {
  for (int i = 0; i < n; i++) out[i] = s * v[i] * v[i] + s * s;
}

int main(void) {
  double in[2] = {1.2, -0.7}, e0[2] = {1, 0}, e1[2] = {0, 1};
  double out[3] = {0}, j0[3] = {0}, j1[3] = {0};
  __parad_fwddiff((void *)polar, parad_width, 2, in, e0, e1, parad_dupnoneed, out, j0, j1);
  double x = in[0], y = in[1], r = sqrt(x * x + y * y);
  CHECK_CLOSE(j0[0], x / r, 1e-12);
  CHECK_CLOSE(j1[0], y / r, 1e-12);
  CHECK_CLOSE(j0[1], -y / (r * r), 1e-12);
  CHECK_CLOSE(j1[1], x / (r * r), 1e-12);
  CHECK_CLOSE(j0[2], (x / r - r) * exp(-x), 1e-12);
  CHECK_CLOSE(j1[2], y / r * exp(-x), 1e-12);
  CHECK_CLOSE(e0[0] + e1[1] - e0[1] - e1[0], 2, 0);

  double v[4] = {0.5, -1, 2, 0.3}, dv0[4] = {1, 1, 1, 1}, dv1[4] = {0}, o[4], do0[4], do1[4];
  double s = 1.5;
  __parad_fwddiff((void *)scaled, parad_width, 2, parad_dupnoneed, o, do0, do1, v, dv0, dv1, parad_const, 4, s, 0.0, 1.0);
  for (int i = 0; i < 4; i++) {
    CHECK_CLOSE(do0[i], 2 * s * v[i], 1e-12);      /* direction 0: v moves by 1 */
    CHECK_CLOSE(do1[i], v[i] * v[i] + 2 * s, 1e-12); /* direction 1: s moves by 1 */
  }
  return check_done();
}
