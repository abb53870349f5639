// A struct {int n; float v;} returned by value: at -O2 it comes back as one i64 with the float's bits
// shifted next to the int, and the caller takes the float out with a shift, a truncation and a bitcast.
// The tangent travels inside the integer as bits. Analytic derivative (tolerance 1e-6, float rounding)
// and central finite differences (h = 1e-3, tolerance 1e-3: float rounding over h).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

typedef struct { int n; float v; } Pair;

__attribute__((noinline)) static Pair make(float x) {
  Pair p = {3, x * sinf(x)};
  return p;
}

static double f(double x) {
  Pair p = make((float)x);
  return (double)p.v * p.n;
}

static double along(void *ctx, double x) { (void)ctx; return f(x); }

int main(void) {
  for (double x = -1.0; x <= 1.5; x += 0.5) {
    double d = __parad_fwddiff((void *)f, x, 1.0);
    float xf = (float)x;
    CHECK_CLOSE(d, 3 * (sinf(xf) + xf * cosf(xf)), 1e-6);
    CHECK_CLOSE(d, fd_central(along, NULL, x, 1e-3), 1e-3);
  }
  return check_done();
}
