// Struct copies that LLVM may lower to integer loads/stores or memcpy: assignment of a struct mixing an
// int count and doubles (with padding), memcpy of such a struct, an array-of-structs element copy, a
// struct returned by value, and memset of a struct (which zeroes the tangents). The tangents must
// survive the copies; analytic (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <string.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

typedef struct { int count; double a; double b[3]; int flag; double c; } Rec;

__attribute__((noinline)) static Rec make(double x) {
  Rec r = {3, x * x, {x, 2 * x, 3 * x}, 1, x * x * x};
  return r;
}

__attribute__((noinline)) static double work(Rec *in, Rec *out, double x) {
  Rec local = *in;           /* struct assignment */
  Rec arr[3];
  memcpy(&arr[0], &local, sizeof local); /* memcpy of a struct */
  arr[1] = make(x);          /* returned by value */
  arr[2] = arr[1];           /* element copy */
  arr[2].a *= local.a;
  Rec zero;
  memset(&zero, 0, sizeof zero);
  zero.count = 2;
  *out = arr[2];             /* copy out through a pointer */
  out->c += zero.c + zero.a; /* memset struct: no tangent */
  double s = 0;
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < arr[k].count; i++) s += arr[k].b[i] * (arr[k].flag ? arr[k].a : 1.0);
  return s + out->c * zero.count;
}

int main(void) {
  double x = 0.7, a = 1.3, b0 = -0.4, b1 = 2.1, b2 = 0.5, c = 1.1;
  Rec in = {3, a, {b0, b1, b2}, 1, c}, din = {0, 0.5, {1, -1, 2}, 0, 3};
  Rec out, dout;
  memset(&dout, 0, sizeof dout);
  double d = __parad_fwddiff((void *)work, &in, &din, &out, &dout, x, 2.0);
  /* s = a (b0 + b1 + b2) + x^2 (6x) + x^2 a (6x) + 2 x^3 */
  double da = 0.5, db = 1 - 1 + 2, dx = 2.0;
  double want = da * (b0 + b1 + b2) + a * db + 18 * x * x * dx + (18 * x * x * a) * dx + (6 * x * x * x) * da +
                6 * x * x * dx;
  CHECK_CLOSE(d, want, 1e-12);
  /* out = arr[2]: a = x^2 a, b = (x, 2x, 3x), c = x^3; count and flag copied */
  CHECK_CLOSE(out.count, 3, 0);
  CHECK_CLOSE(out.flag, 1, 0);
  CHECK_CLOSE(out.a, x * x * a, 1e-15);
  CHECK_CLOSE(dout.a, 2 * x * a * dx + x * x * da, 1e-12);
  CHECK_CLOSE(dout.b[0], dx, 1e-12);
  CHECK_CLOSE(dout.b[2], 3 * dx, 1e-12);
  CHECK_CLOSE(dout.c, 3 * x * x * dx, 1e-12);
  return check_done();
}
