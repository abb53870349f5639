// A function that returns nothing and writes its results through a pointer: the tangents arrive in the
// shadow of the output. Checked against central finite differences (h = 1e-5, tolerance 1e-7).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

void __parad_fwddiff(void *, ...);

static void polar(double r, double t, double *out) {
  out[0] = r * cos(t);
  out[1] = r * sin(t);
  out[2] = exp(-r * t) / (1 + t * t);
}

int main(void) {
  double r = 1.7, t = 0.4, out[3], dout[3] = {0, 0, 0}, lo[3], hi[3], h = 1e-5;
  __parad_fwddiff((void *)polar, r, 0.0, t, 1.0, parad_dup, out, dout);
  polar(r, t + h, hi);
  polar(r, t - h, lo);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(dout[i], (hi[i] - lo[i]) / (2 * h), 1e-7);
  /* the primal result is written too */
  polar(r, t, lo);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(out[i], lo[i], 1e-15);
  /* dupnoneed: same tangents */
  double d2[3] = {0, 0, 0};
  __parad_fwddiff((void *)polar, r, 0.0, t, 1.0, parad_dupnoneed, out, d2);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(d2[i], dout[i], 1e-15);
  return check_done();
}
