// Weights stored as bfloat16 (__bf16) and computed in float: the adjoints of the weights are bfloats, added
// in float and rounded back, which LLVM lowers to __truncsfbf2, missing from Debian 12's libgcc: the program
// did not link (the program itself only widens bfloats). The rounding is written out now
// (ir/bfloat_truncs.h). Gradients against the analytic ones: exactly where the values are bfloats
// (1e-12), within bfloat's rounding (2^-8 relative) where an adjoint is rounded; a tangent along a unit
// direction (1e-6); at -O2 (%cflags) and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

double __parad_autodiff(void *, ...);
float __parad_fwddiff(void *, ...);

enum { N = 6 };

static float dot(const __bf16 *w, const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += (float)w[i] * x[i];
  return s;
}

/* sum_i tanh(w_i x_i): the adjoints (1 - tanh^2) x_i are rounded to bfloat */
static float squashed(const __bf16 *w, const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += tanhf((float)w[i] * x[i]);
  return s;
}

static __bf16 bf(float f) { /* by the bits, as a program reading a file does */
  uint32_t u;
  memcpy(&u, &f, 4);
  uint16_t h = (uint16_t)(u >> 16);
  __bf16 b;
  memcpy(&b, &h, 2);
  return b;
}

int main(void) {
  float x[N] = {1.5f, -2, 0.25f, 3, -0.75f, 40};
  __bf16 w[N], dw[N], dv[N];
  for (int i = 0; i < N; i++) w[i] = bf(0.5f * (float)i - 1), dw[i] = bf(0), dv[i] = bf(0);
  __parad_autodiff((void *)dot, w, dw, parad_const, x, N);
  __parad_autodiff((void *)squashed, w, dv, parad_const, x, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE((double)(float)dw[i], x[i], 1e-12);
    float t = tanhf((float)w[i] * x[i]);
    double want = (1 - (double)t * t) * x[i];
    CHECK_CLOSE((double)(float)dv[i], want, 1.0 / 256);
    __bf16 e[N];
    for (int k = 0; k < N; k++) e[k] = bf(k == i);
    CHECK_CLOSE(__parad_fwddiff((void *)dot, w, e, parad_const, x, N), x[i], 1e-6);
  }
  return check_done();
}
