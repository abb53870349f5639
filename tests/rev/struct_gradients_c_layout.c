// Active structs passed by value in registers, whose gradients come back in the struct the call is declared
// to return. The C ABI splits `float3 {float x, y, z;}` into {<2 x float>, float} and `{float u, v;}` into a
// <2 x float>; the gradients' own struct of those types is laid out otherwise than the user's struct of
// float3s: two float3s were refused ("cannot hold the gradients"), and with a double, a float3, a float pair,
// a double and a double pair the pair's gradient landed 8 bytes off (0 and 77 for 77 and 55) and nothing
// said so. The gradients are now placed where C puts the user's fields (ad/request.c, out_layout).
//   dot(a, b)                   = a.x b.x + a.y^2 b.y + a.z b.z
//   mixed(s, a, q, t, d)        = s a.x + a.y a.z t + q.u q.v d.a + d.b s t
//   cplx(z, w)                  = Re(z^2) w + Im(z) w^2, and cplx_after(w, z) the same with w first (the
//                                 complex's gradient at byte 4, where the gradients' own struct put it at 8)
//   counted(p)                  = p.u p.v p.n + p.v, p = {float u, v; int n;} (the int in a register of its
//                                 own: its gradient's bytes zero; forward mode too)
// Each gradient against its formula (floats: 1e-6; doubles: 1e-12); dot's also against central differences
// of a double copy (1e-6); split mode (augmented forward, then reverse with the result's adjoint 2) the same,
// doubled. At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <complex.h>
#include "check.h"

typedef struct { float x, y, z; } float3;
typedef struct { float u, v; } F2;
typedef struct { double a, b; } D2;

static float dot(float3 a, float3 b) { return a.x * b.x + a.y * a.y * b.y + a.z * b.z; }
static double dot_d(const double *v) { return v[0] * v[3] + v[1] * v[1] * v[4] + v[2] * v[5]; }
static double mixed(double s, float3 a, F2 q, double t, D2 d) { return s * a.x + a.y * a.z * t + q.u * q.v * d.a + d.b * s * t; }
static float cplx(float complex z, float w) { return crealf(z * z) * w + cimagf(z) * w * w; }
typedef struct { float u, v; int n; } Counted;
static float counted(Counted p) { return p.u * p.v * p.n + p.v; }

typedef struct { float3 da, db; } DotGrads;
typedef struct { double ds; float3 da; F2 dq; double dt; D2 dd; } MixedGrads;
typedef struct { float complex dz; float dw; } CplxGrads;
typedef struct { Counted dp; } CountedGrads;
typedef struct { float dw; float complex dz; } AfterGrads;
static float cplx_after(float w, float complex z) { return cplx(z, w); }

DotGrads dot_gradient(void *, ...) __asm__("__parad_autodiff");
MixedGrads mixed_gradient(void *, ...) __asm__("__parad_autodiff.mixed");
CplxGrads cplx_gradient(void *, ...) __asm__("__parad_autodiff.cplx");
CountedGrads counted_gradient(void *, ...) __asm__("__parad_autodiff.counted");
AfterGrads after_gradient(void *, ...) __asm__("__parad_autodiff.after");
float counted_tangent(void *, ...) __asm__("__parad_fwddiff");
void *__parad_augmentfwd(void *, ...);
DotGrads dot_reverse(void *, ...) __asm__("__parad_reverse");
MixedGrads mixed_reverse(void *, ...) __asm__("__parad_reverse.mixed");

static void check_dot(DotGrads g, float3 a, float3 b, double seed) {
  CHECK_CLOSE(g.da.x, seed * b.x, 1e-6);
  CHECK_CLOSE(g.da.y, seed * 2 * a.y * b.y, 1e-6);
  CHECK_CLOSE(g.da.z, seed * b.z, 1e-6);
  CHECK_CLOSE(g.db.x, seed * a.x, 1e-6);
  CHECK_CLOSE(g.db.y, seed * a.y * a.y, 1e-6);
  CHECK_CLOSE(g.db.z, seed * a.z, 1e-6);
}

static void check_mixed(MixedGrads g, double s, float3 a, F2 q, double t, D2 d, double seed) {
  CHECK_CLOSE(g.ds, seed * (a.x + d.b * t), 1e-12);
  CHECK_CLOSE(g.da.x, seed * s, 1e-6);
  CHECK_CLOSE(g.da.y, seed * a.z * t, 1e-6);
  CHECK_CLOSE(g.da.z, seed * a.y * t, 1e-6);
  CHECK_CLOSE(g.dq.u, seed * q.v * d.a, 1e-6);
  CHECK_CLOSE(g.dq.v, seed * q.u * d.a, 1e-6);
  CHECK_CLOSE(g.dt, seed * (a.y * a.z + d.b * s), 1e-12);
  CHECK_CLOSE(g.dd.a, seed * q.u * q.v, 1e-12);
  CHECK_CLOSE(g.dd.b, seed * s * t, 1e-12);
}

int main(void) {
  float3 a = {1.5f, -2, 0.75f}, b = {4, 0.5f, -3};
  DotGrads g = dot_gradient((void *)dot, a, b);
  check_dot(g, a, b, 1);
  double v[6] = {a.x, a.y, a.z, b.x, b.y, b.z};
  float *got = &g.da.x;
  for (int j = 0; j < 6; j++) CHECK_CLOSE(got[j], fd_component(dot_d, v, 6, j, 1e-6), 1e-6);
  void *tape = __parad_augmentfwd((void *)dot, a, b);
  check_dot(dot_reverse((void *)dot, a, b, 2.0f, tape), a, b, 2);

  F2 q = {5, -0.25f};
  D2 d = {1.25, -3.5};
  double s = 0.7, t = -1.3;
  check_mixed(mixed_gradient((void *)mixed, s, a, q, t, d), s, a, q, t, d, 1);
  tape = __parad_augmentfwd((void *)mixed, s, a, q, t, d);
  check_mixed(mixed_reverse((void *)mixed, s, a, q, t, d, 2.0, tape), s, a, q, t, d, 2);

  float complex z = 1.0f + 2.0f * I;
  float w = 3;
  CplxGrads c = cplx_gradient((void *)cplx, z, w);
  /* Re(z^2) = x^2 - y^2: d/dx 2 x w, d/dy -2 y w + w^2; d/dw x^2 - y^2 + 2 y w */
  CHECK_CLOSE(crealf(c.dz), 2 * crealf(z) * w, 1e-6);
  CHECK_CLOSE(cimagf(c.dz), -2 * cimagf(z) * w + w * w, 1e-6);
  CHECK_CLOSE(c.dw, crealf(z) * crealf(z) - cimagf(z) * cimagf(z) + 2 * cimagf(z) * w, 1e-6);
  AfterGrads af = after_gradient((void *)cplx_after, w, z);
  CHECK_CLOSE(crealf(af.dz), crealf(c.dz), 1e-6);
  CHECK_CLOSE(cimagf(af.dz), cimagf(c.dz), 1e-6);
  CHECK_CLOSE(af.dw, c.dw, 1e-6);

  Counted p = {2, -3, 4}, du = {1, 0, 0}, dv = {0, 1, 0};
  CountedGrads cg = counted_gradient((void *)counted, p);
  CHECK_CLOSE(cg.dp.u, p.v * p.n, 1e-6);
  CHECK_CLOSE(cg.dp.v, p.u * p.n + 1, 1e-6);
  CHECK_CLOSE(cg.dp.n, 0, 0);
  CHECK_CLOSE(counted_tangent((void *)counted, parad_dup, p, du), p.v * p.n, 1e-6);
  CHECK_CLOSE(counted_tangent((void *)counted, parad_dup, p, dv), p.u * p.n + 1, 1e-6);
  return check_done();
}
