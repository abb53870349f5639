// A struct of two floats (8 bytes) copied with memcpy or assignment, in reverse mode: at -O2 LLVM turns
// the copy into one i64 load and store and reads the fields back with trunc / lshr + bitcast, so the
// adjoints of both floats must travel back through the integer. The output struct's shadow is seeded.
// Analytic gradients (tolerance 1e-6, float rounding) and forward tangents along every unit direction
// (tolerance 1e-6).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct { float a, b; } F2;

__attribute__((noinline)) static double copy_mul(const F2 *in, F2 *out) {
  memcpy(out, in, sizeof *in);
  return out->a * out->b;
}

__attribute__((noinline)) static double assign_mul(const F2 *in, F2 *out, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    out[i] = in[i];
    s += out[i].a * out[i].b;
  }
  return s;
}

int main(void) {
  F2 in = {2, 3}, din = {0, 0}, out, dout = {0.5f, -0.25f};
  __parad_autodiff((void *)copy_mul, &in, &din, &out, &dout);
  CHECK_CLOSE(din.a, 3 + 0.5, 1e-6);
  CHECK_CLOSE(din.b, 2 - 0.25, 1e-6);
  for (int k = 0; k < 2; k++) {
    F2 e = {k == 0, k == 1}, o2, do2;
    double t = __parad_fwddiff((void *)copy_mul, &in, &e, &o2, &do2) + 0.5 * do2.a - 0.25 * do2.b;
    CHECK_CLOSE(k == 0 ? din.a : din.b, t, 1e-6);
  }

  F2 v[3] = {{1, 2}, {0.5f, -1}, {3, 0.25f}}, dv[3] = {{0, 0}}, w[3], dw[3] = {{0, 0}, {1, 0}, {0, 2}};
  F2 seed[3];
  memcpy(seed, dw, sizeof seed);
  __parad_autodiff((void *)assign_mul, v, dv, w, dw, parad_const, 3);
  for (int i = 0; i < 3; i++) {
    CHECK_CLOSE(dv[i].a, v[i].b + seed[i].a, 1e-6);
    CHECK_CLOSE(dv[i].b, v[i].a + seed[i].b, 1e-6);
  }
  for (int k = 0; k < 6; k++) {
    F2 e[3] = {{0, 0}}, w2[3], dw2[3];
    ((float *)e)[k] = 1;
    double t = __parad_fwddiff((void *)assign_mul, v, e, w2, dw2, parad_const, 3);
    for (int i = 0; i < 3; i++) t += seed[i].a * dw2[i].a + seed[i].b * dw2[i].b;
    CHECK_CLOSE(((float *)dv)[k], t, 1e-6);
  }
  return check_done();
}
