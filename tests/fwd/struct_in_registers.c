// Structs the C ABI passes in registers, given by value to a request (`struct {double a, b;}`, `double
// complex`, a double beside an int, four floats): clang passes such a struct as several arguments, to the
// function and to the request alike, so the request's arguments are the struct's parts, then the parts of
// each of its shadows. They were read part by part as value, shadow, value, shadow: forward mode gave the
// tangent along the wrong part (3 for 9, -0.756 for 0.21) without a word. Forward tangents (scalar and
// width 2, with parad_dup, with parad_const, a pointer after the struct) and reverse-mode gradients (returned
// as the struct's parts) against analytic derivatives (1e-12; floats 1e-5), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <complex.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double complex __parad_fwddiff_complex(void *, ...);

typedef struct { double a, b; } P;
typedef struct { double a; int k; } Q;
typedef struct { int k; double a; } R;
typedef struct { float x, y, z, w; } F4;
typedef struct { double da, db; } Grad2;
typedef struct { double d0, d1; } Two;
Grad2 __parad_autodiff_grad2(void *, ...);
Two __parad_fwddiff_two(void *, ...);

static double p_fn(P p, const double *x) { return p.a * p.a * p.b * p.b + p.a * x[0]; }
static double complex cube(double complex z) { return z * z * z; }
static double creal_cube(double complex z) { return creal(z * z * z); }
static double q_fn(Q q) { return q.a * q.a * q.k; }
static double r_fn(R r, double y) { return r.k * r.a * y; }
static float f4_fn(F4 v) { return v.x * v.y + v.z * v.z * v.w; }

int main(void) {
  P p = {0.5, 3.0}, ea = {1, 0}, eb = {0, 1};
  double x[1] = {2.0}, dx0[1] = {0}, dx1[1] = {1};
  /* df/da = 2 a b^2 + x, df/db = 2 a^2 b, df/dx = a */
  CHECK_CLOSE(__parad_fwddiff((void *)p_fn, p, ea, x, dx0), 2 * 0.5 * 9 + 2, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)p_fn, parad_dup, p, eb, x, dx0), 2 * 0.25 * 3, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)p_fn, parad_const, p, x, dx1), 0.5, 1e-12);
  Two t = __parad_fwddiff_two((void *)p_fn, parad_width, 2, p, ea, eb, x, dx0, dx0);
  CHECK_CLOSE(t.d0, 2 * 0.5 * 9 + 2, 1e-12);
  CHECK_CLOSE(t.d1, 2 * 0.25 * 3, 1e-12);

  /* d/dRe z^3 along 1 is 3 z^2; along i, 3 i z^2 */
  double complex z = 0.4 + 0.3 * I, dz = 3 * z * z;
  CHECK_CLOSE(__parad_fwddiff((void *)creal_cube, z, (double complex)1.0), creal(dz), 1e-12);
  double complex tc = __parad_fwddiff_complex((void *)cube, z, (double complex)I);
  CHECK_CLOSE(creal(tc), creal(I * dz), 1e-12);
  CHECK_CLOSE(cimag(tc), cimag(I * dz), 1e-12);

  Q q = {1.5, 3}, dq = {1, 0};
  CHECK_CLOSE(__parad_fwddiff((void *)q_fn, q, dq), 2 * 1.5 * 3, 1e-12);
  R r = {4, 0.5}, dr = {0, 1};
  CHECK_CLOSE(__parad_fwddiff((void *)r_fn, r, dr, 2.0, 0.0), 4 * 2.0, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)r_fn, r, (R){0, 0}, 2.0, 1.0), 4 * 0.5, 1e-12);
  F4 v = {1, 2, 3, 4}, dv = {0, 0, 1, 1};
  CHECK_CLOSE(__parad_fwddiff((void *)f4_fn, v, dv), 2 * 3 * 4 + 9, 1e-5);

  /* reverse mode: the gradient of each part, in the struct's order */
  Grad2 g = __parad_autodiff_grad2((void *)p_fn, p, parad_const, x);
  CHECK_CLOSE(g.da, 2 * 0.5 * 9 + 2, 1e-12);
  CHECK_CLOSE(g.db, 2 * 0.25 * 3, 1e-12);
  return check_done();
}
