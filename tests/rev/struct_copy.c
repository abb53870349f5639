// Struct copies in reverse mode: assignment of a struct mixing an int count, doubles and padding, memcpy
// of such a struct, an array-of-structs element copy, a struct returned by value, a copy out through a
// pointer, and memset of a struct (its adjoint is dropped). The adjoints must flow back through every
// copy; the output struct's shadow is seeded so that the gradient is of result + seed . out. Analytic
// gradient (tolerance 1e-12, rounding only) and forward tangents along every unit direction of the
// active inputs (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct { int count; double a; double b[3]; int flag; double c; } Rec;

__attribute__((noinline)) static Rec make(double x) {
  Rec r = {3, x * x, {x, 2 * x, 3 * x}, 1, x * x * x};
  return r;
}

__attribute__((noinline)) static double work(Rec *in, Rec *out, double x) {
  Rec local = *in;
  Rec arr[3];
  memcpy(&arr[0], &local, sizeof local);
  arr[1] = make(x);
  arr[2] = arr[1];
  arr[2].a *= local.a;
  Rec zero;
  memset(&zero, 0, sizeof zero);
  zero.count = 2;
  *out = arr[2];
  out->c += zero.c + zero.a + local.c * local.b[1];
  double s = 0;
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < arr[k].count; i++) s += arr[k].b[i] * (arr[k].flag ? arr[k].a : 1.0);
  return s + out->c * zero.count;
}

/* the active scalars of Rec, by number: 0 a, 1..3 b, 4 c */
static double *field(Rec *r, int k) { return k == 0 ? &r->a : k <= 3 ? &r->b[k - 1] : &r->c; }

int main(void) {
  double x = 0.7, a = 1.3, b0 = -0.4, b1 = 2.1, b2 = 0.5, c = 1.1;
  Rec in = {3, a, {b0, b1, b2}, 1, c}, din, out, dout;
  memset(&din, 0, sizeof din);
  memset(&dout, 0, sizeof dout);
  const double seed[5] = {0.3, 0.1, 0.2, -0.4, 0.7};
  for (int k = 0; k < 5; k++) *field(&dout, k) = seed[k];
  double dx = __parad_autodiff((void *)work, &in, &din, &out, &dout, x);
  /* result = a (b0 + b1 + b2) + 6 x^3 + 6 x^3 a + 2 (x^3 + c b1);
     out = (x^2 a, x, 2x, 3x, x^3 + c b1) */
  double ga = (b0 + b1 + b2) + 6 * x * x * x + seed[0] * x * x;
  double gb1 = a + 2 * c + seed[4] * c;
  CHECK_CLOSE(din.a, ga, 1e-12);
  CHECK_CLOSE(din.b[0], a, 1e-12);
  CHECK_CLOSE(din.b[1], gb1, 1e-12);
  CHECK_CLOSE(din.b[2], a, 1e-12);
  CHECK_CLOSE(din.c, 2 * b1 + seed[4] * b1, 1e-12);
  CHECK_CLOSE(dx, 18 * x * x + 18 * x * x * a + 6 * x * x + seed[0] * 2 * x * a + seed[1] + 2 * seed[2] + 3 * seed[3] +
                      seed[4] * 3 * x * x, 1e-12);
  for (int k = 0; k <= 5; k++) {
    Rec in2 = {3, a, {b0, b1, b2}, 1, c}, din2, out2, dout2;
    memset(&din2, 0, sizeof din2);
    memset(&dout2, 0, sizeof dout2);
    if (k < 5) *field(&din2, k) = 1;
    double t = __parad_fwddiff((void *)work, &in2, &din2, &out2, &dout2, x, (double)(k == 5));
    for (int j = 0; j < 5; j++) t += seed[j] * *field(&dout2, j);
    CHECK_CLOSE(k < 5 ? *field(&din, k) : dx, t, 1e-12);
  }
  CHECK_CLOSE(out.count, 3, 0);
  CHECK_CLOSE(out.a, x * x * a, 1e-15);
  return check_done();
}
