// Split mode on functions returning small structs in registers: the adjoint of the result is a struct of
// the same type, which C passes through "..." in pieces (struct {double re, im;} as two doubles, struct
// {float x, y, z;} as <2 x float> and float). Seeds (1, 0) and (0, 1) give the gradients of Re e^z and
// Im e^z: analytic (tolerance 1e-12, rounding only) and forward tangents along each unit direction
// (tolerance 1e-12). A float polar-to-Cartesian map with a general seed: analytic (tolerance 1e-6,
// float rounding) and forward tangents (tolerance 1e-6).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

typedef struct { double re, im; } Complex;
typedef struct { double dre, dim; } G2;
void *__parad_augmentfwd(void *, ...);
G2 __parad_reverse2(void *, ...);
Complex __parad_fwddiff_c(void *, ...);
typedef struct { float x, y, z; } V3;
typedef struct { float da, dr; } G2f;
G2f __parad_reverse_f(void *, ...);
V3 __parad_fwddiff_v3(void *, ...);
extern int parad_tape;

__attribute__((noinline)) static V3 polar(float a, float r) {
  V3 v = {r * cosf(a), r * sinf(a), r * r};
  return v;
}

__attribute__((noinline)) static Complex cexp_(double re, double im) {
  Complex c = {exp(re) * cos(im), exp(re) * sin(im)};
  return c;
}

int main(void) {
  double re = 0.3, im = 1.2, e = exp(re);
  Complex t_re = __parad_fwddiff_c((void *)cexp_, re, 1.0, im, 0.0);
  Complex t_im = __parad_fwddiff_c((void *)cexp_, re, 0.0, im, 1.0);
  for (int s = 0; s < 2; s++) {
    void *tape = __parad_augmentfwd((void *)cexp_, re, im);
    Complex seed = {s == 0, s == 1};
    G2 g = __parad_reverse2((void *)cexp_, re, im, seed, parad_tape, tape);
    CHECK_CLOSE(g.dre, s == 0 ? e * cos(im) : e * sin(im), 1e-12);
    CHECK_CLOSE(g.dim, s == 0 ? -e * sin(im) : e * cos(im), 1e-12);
    CHECK_CLOSE(g.dre, s == 0 ? t_re.re : t_re.im, 1e-12);
    CHECK_CLOSE(g.dim, s == 0 ? t_im.re : t_im.im, 1e-12);
  }
  float a = 0.7f, r = 1.9f;
  V3 seed = {0.5f, -1.5f, 2.0f};
  void *tape = __parad_augmentfwd((void *)polar, a, r);
  G2f g = __parad_reverse_f((void *)polar, a, r, seed, parad_tape, tape);
  V3 ta = __parad_fwddiff_v3((void *)polar, a, 1.0f, r, 0.0f), tr = __parad_fwddiff_v3((void *)polar, a, 0.0f, r, 1.0f);
  CHECK_CLOSE(g.da, seed.x * -r * sinf(a) + seed.y * r * cosf(a), 1e-6);
  CHECK_CLOSE(g.dr, seed.x * cosf(a) + seed.y * sinf(a) + seed.z * 2 * r, 1e-6);
  CHECK_CLOSE(g.da, seed.x * ta.x + seed.y * ta.y + seed.z * ta.z, 1e-6);
  CHECK_CLOSE(g.dr, seed.x * tr.x + seed.y * tr.y + seed.z * tr.z, 1e-6);
  return check_done();
}
