// Vector mode in single precision: two float tangents come back as <2 x float> in one register, three
// through memory; duplicated pointers take one shadow per direction. Analytic tangents (tolerance 1e-5).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

typedef struct { float a, b; } F2;
typedef struct { float a, b, c; } F3;
F2 __parad_fwddiff_f2(void *, ...);
F3 __parad_fwddiff_f3(void *, ...);

static float f(float x, float y) { return sinf(x) * y + x / y; }
static float norm3(const float *v) { return sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

int main(void) {
  float x = 0.9f, y = 1.6f;
  F2 t = __parad_fwddiff_f2((void *)f, parad_width, 2, x, 1.0f, 0.0f, y, 0.0f, 1.0f);
  CHECK_CLOSE(t.a, cosf(x) * y + 1 / y, 1e-5);
  CHECK_CLOSE(t.b, sinf(x) - x / (y * y), 1e-5);
  float v[3] = {1, 2, 2}, e0[3] = {1, 0, 0}, e1[3] = {0, 1, 0}, e2[3] = {0, 0, 1};
  F3 g = __parad_fwddiff_f3((void *)norm3, parad_width, 3, v, e0, e1, e2);
  CHECK_CLOSE(g.a, 1.0 / 3, 1e-5);
  CHECK_CLOSE(g.b, 2.0 / 3, 1e-5);
  CHECK_CLOSE(g.c, 2.0 / 3, 1e-5);
  return check_done();
}
