// A struct the C ABI passes in registers, given by value to a vector forward request with its tangents:
// the request's call is variadic, and where it runs out of registers the rest of the structs come in
// memory (byval), while the function takes each in registers, as parts. An image header {int w, h; float
// *data} and a {int n; double *data} at width 2 and 3: the tangents came in memory and the request was
// refused ("does not have the struct's type"); their parts are read from their eightbytes now
// (ad/request.c, struct_arguments). Tangents against analytic derivatives (doubles 1e-12, floats 1e-5),
// and against the scalar request, at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include "check.h"

double __parad_fwddiff(void *, ...);
float __parad_fwddiff_f(void *, ...) __asm__("__parad_fwddiff");

typedef struct { int n; double *data; } Vec;
typedef struct { int w, h; float *data; } Image;
typedef struct { double d[2]; } Two;
typedef struct { double d[3]; } Three;
typedef struct { float d[2]; } TwoF;
Two __parad_fwddiff_two(void *, ...) __asm__("__parad_fwddiff");
Three __parad_fwddiff_three(void *, ...) __asm__("__parad_fwddiff");
TwoF __parad_fwddiff_twof(void *, ...) __asm__("__parad_fwddiff");

static double weighted(Vec v, const double *k) {
  double s = 0;
  for (int i = 0; i < v.n; i++) s += k[i] * v.data[i] * v.data[i];
  return s;
}

static float energy(Image im) {
  float s = 0;
  for (int y = 0; y < im.h; y++)
    for (int x = 1; x < im.w; x++) {
      float d = im.data[y * im.w + x] - im.data[y * im.w + x - 1];
      s += d * d;
    }
  return s;
}

int main(void) {
  double x[3] = {1, 2, 3}, e0[3] = {1, 0, 0}, e1[3] = {0, 1, 0}, e2[3] = {0, 0, 1}, k[3] = {1, 2, 0.5}, kz[3] = {0};
  Vec v = {3, x}, v0 = {3, e0}, v1 = {3, e1}, v2 = {3, e2};
  Two t = __parad_fwddiff_two((void *)weighted, parad_width, 2, v, v0, v1, k, kz, kz);
  CHECK_CLOSE(t.d[0], 2 * k[0] * x[0], 1e-12);
  CHECK_CLOSE(t.d[1], 2 * k[1] * x[1], 1e-12);
  Three u = __parad_fwddiff_three((void *)weighted, parad_width, 3, v, v0, v1, v2, k, kz, kz, kz);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(u.d[i], 2 * k[i] * x[i], 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)weighted, v, v2, k, kz), 2 * k[2] * x[2], 1e-12);

  float px[6] = {0.5f, 1.0f, 2.5f, -1.0f, 0.25f, 3.0f}, a[6] = {0}, c[6] = {0};
  a[1] = 1, c[4] = 1; /* along pixel 1 (row 0) and pixel 4 (row 1) */
  Image im = {3, 2, px}, ia = {3, 2, a}, ic = {3, 2, c};
  TwoF tf = __parad_fwddiff_twof((void *)energy, parad_width, 2, im, ia, ic);
  CHECK_CLOSE(tf.d[0], 2 * (px[1] - px[0]) - 2 * (px[2] - px[1]), 1e-5);
  CHECK_CLOSE(tf.d[1], 2 * (px[4] - px[3]) - 2 * (px[5] - px[4]), 1e-5);
  CHECK_CLOSE(__parad_fwddiff_f((void *)energy, im, ic), tf.d[1], 1e-5);
  return check_done();
}
