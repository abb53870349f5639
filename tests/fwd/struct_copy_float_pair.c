// A struct of two floats (8 bytes) copied with memcpy or assignment: at -O2 LLVM turns the copy into one
// i64 load and store and reads the fields back with trunc / lshr + bitcast to float. The integer carries
// the floats' tangent bits through every step. Analytic (tolerance 1e-6).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <string.h>
#include "check.h"

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
  F2 in = {2, 3}, din = {1, -1}, out, dout = {0, 0};
  double d = __parad_fwddiff((void *)copy_mul, &in, &din, &out, &dout);
  CHECK_CLOSE(d, 1 * 3 + 2 * -1, 1e-6);
  CHECK_CLOSE(dout.a, 1, 1e-6);
  CHECK_CLOSE(dout.b, -1, 1e-6);

  F2 v[3] = {{1, 2}, {0.5f, -1}, {3, 0.25f}}, dv[3] = {{1, 0}, {0, 1}, {2, 2}}, w[3], dw[3] = {{0, 0}};
  double d2 = __parad_fwddiff((void *)assign_mul, v, dv, w, dw, parad_const, 3);
  CHECK_CLOSE(d2, (1 * 2 + 0) + (0 + 0.5 * 1) + (2 * 0.25 + 3 * 2), 1e-6);
  CHECK_CLOSE(dw[2].b, 2, 1e-6);
  return check_done();
}
