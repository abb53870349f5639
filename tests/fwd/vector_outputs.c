// Vector mode through memory: a function writing an output array gets one output shadow per direction,
// so a full Jacobian of R^3 -> R^3 comes out of one call with width 3. Each column against the analytic
// Jacobian (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

void __parad_fwddiff(void *, ...);

__attribute__((noinline)) static void rotate_scale(const double *in, double *out) {
  double r = in[0], t = in[1], s = in[2];
  out[0] = s * r * cos(t);
  out[1] = s * r * sin(t);
  out[2] = s * s * r;
}

int main(void) {
  double in[3] = {1.5, 0.7, 2.0}, out[3];
  double e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, j[3][3] = {{0}};
  __parad_fwddiff((void *)rotate_scale, parad_width, 3, in, e[0], e[1], e[2], out, j[0], j[1], j[2]);
  double r = in[0], t = in[1], s = in[2];
  double want[3][3] = {/* column k = d out / d in_k */
                       {s * cos(t), s * sin(t), s * s},
                       {-s * r * sin(t), s * r * cos(t), 0},
                       {r * cos(t), r * sin(t), 2 * s * r}};
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 3; i++) CHECK_CLOSE(j[k][i], want[k][i], 1e-12);
  return check_done();
}
