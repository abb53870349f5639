// Many active scalar parameters of type float in reverse mode: eight float parameters (one passed as
// constant in a second call) whose gradients come back as a struct of eight (then seven) floats, from a
// function mixing float arithmetic, sinf/expf/sqrtf and a float loop. Analytic gradient evaluated in
// double (tolerance 1e-5 relative: float rounding of values and adjoints) and forward tangents along
// every unit direction (tolerance 1e-5: float computations in a different order).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

typedef struct { float d[8]; } G8;
typedef struct { float d[7]; } G7;
G8 __parad_autodiff8(void *, ...);
G7 __parad_autodiff7(void *, ...);
float __parad_fwddiff_f(void *, ...);

__attribute__((noinline)) static float many(float a, float b, float c, float d, float e, float f, float g, float h) {
  float s = a * b + sinf(c) * d - expf(0.5f * e) / (1 + f * f);
  for (int i = 0; i < 4; i++) s += g * (i + 1) * h + 0.1f * s * a;
  return s + sqrtf(h * h + 1);
}

/* the same in double, and its gradient by hand */
static void grad(const double *p, double *out) {
  double a = p[0], b = p[1], c = p[2], d = p[3], e = p[4], f = p[5], g = p[6], h = p[7];
  double s = a * b + sin(c) * d - exp(0.5 * e) / (1 + f * f);
  double ds[8] = {b, a, cos(c) * d, sin(c), -0.5 * exp(0.5 * e) / (1 + f * f), exp(0.5 * e) * 2 * f / ((1 + f * f) * (1 + f * f)), 0, 0};
  for (int i = 0; i < 4; i++) {
    double k = 1 + 0.1 * a; /* s <- s (1 + 0.1 a) + g (i + 1) h */
    for (int j = 0; j < 8; j++) ds[j] *= k;
    ds[0] += 0.1 * s, ds[6] += (i + 1) * h, ds[7] += g * (i + 1);
    s = s * k + g * (i + 1) * h;
  }
  ds[7] += h / sqrt(h * h + 1);
  for (int j = 0; j < 8; j++) out[j] = ds[j];
}

int main(void) {
  float p[8] = {0.7f, -1.2f, 0.4f, 2.0f, 0.3f, -0.8f, 1.5f, 0.6f};
  G8 r = __parad_autodiff8((void *)many, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
  double pd[8], want[8];
  for (int j = 0; j < 8; j++) pd[j] = p[j];
  grad(pd, want);
  for (int k = 0; k < 8; k++) {
    CHECK_CLOSE(r.d[k], want[k], 1e-5);
    float e[8] = {0};
    e[k] = 1;
    float t = __parad_fwddiff_f((void *)many, p[0], e[0], p[1], e[1], p[2], e[2], p[3], e[3], p[4], e[4], p[5], e[5], p[6], e[6], p[7], e[7]);
    CHECK_CLOSE(r.d[k], t, 1e-5);
  }
  /* the fourth parameter constant: seven gradients, shifted */
  G7 q = __parad_autodiff7((void *)many, p[0], p[1], p[2], parad_const, p[3], p[4], p[5], p[6], p[7]);
  for (int k = 0; k < 7; k++) CHECK_CLOSE(q.d[k], r.d[k < 3 ? k : k + 1], 1e-6);
  return check_done();
}
