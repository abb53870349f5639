// Forward mode of a function returning a struct of more than 16 bytes, which C returns through memory the
// caller passes (sret): the call declared returning the struct gets the tangent of each field. The request
// counted the hidden parameter and blamed the next argument ("the argument for parameter #2 does not have
// the parameter's type"). A Vec3 of a rotation and a square (t dup, the vector const), a struct of four
// doubles with both arguments dup, and a struct of three doubles beside a float: against the analytic
// tangents (1e-12; 1e-6 for the float), at -O2 and -O0. Reverse mode stays refused
// (tests/diag/struct_result_memory.c); a struct of two doubles comes back in registers
// (tests/rev/struct_return.c).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

typedef struct { double x, y, z; } Vec3;
typedef struct { double a, b, c, d; } Quad;
typedef struct { double u, v, w; float q; } Mixed;
Vec3 __parad_fwddiff3(void *, ...);
Quad __parad_fwddiff4(void *, ...);
Mixed __parad_fwddiff_m(void *, ...);

static Vec3 rot(const Vec3 *a, double t) { return (Vec3){a->x * cos(t), a->y * sin(t), t * t}; }
static Quad quad(double s, double t) { return (Quad){s * t, s / t, exp(s), t * t * t}; }
static Mixed mixed(double s) { return (Mixed){s, 2 * s, s * s, (float)(3 * s)}; }

int main(void) {
  Vec3 a = {0.3, -0.5, 0.9};
  double t = 0.6, s = 1.3;
  Vec3 d = __parad_fwddiff3((void *)rot, parad_const, &a, t, 1.0);
  CHECK_CLOSE(d.x, -0.3 * sin(t), 1e-12);
  CHECK_CLOSE(d.y, -0.5 * cos(t), 1e-12);
  CHECK_CLOSE(d.z, 2 * t, 1e-12);
  Quad q = __parad_fwddiff4((void *)quad, s, 0.5, t, 2.0); /* direction (0.5, 2) */
  CHECK_CLOSE(q.a, 0.5 * t + 2.0 * s, 1e-12);
  CHECK_CLOSE(q.b, 0.5 / t - 2.0 * s / (t * t), 1e-12);
  CHECK_CLOSE(q.c, 0.5 * exp(s), 1e-12);
  CHECK_CLOSE(q.d, 2.0 * 3 * t * t, 1e-12);
  Mixed m = __parad_fwddiff_m((void *)mixed, s, 1.0);
  CHECK_CLOSE(m.u, 1, 1e-12);
  CHECK_CLOSE(m.v, 2, 1e-12);
  CHECK_CLOSE(m.w, 2 * s, 1e-12);
  CHECK_CLOSE(m.q, 3, 1e-6);
  return check_done();
}
