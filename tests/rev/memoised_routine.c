// A routine that keeps its result for the last input (Gauss-Legendre weights for the last interval, a
// factorisation for the last matrix): `if (b != last) { w = sin(b); last = b; } return w;`. A derivative at
// the point of the previous plain call took the cached path, whose value carries no derivative: the
// gradient and the tangent were 0 where 2 cos(2 x) is right, silently. The cache's key (a float only
// compared for equality, and given the number it is compared with) is made NaN at a derivative's entry,
// so the derivative recomputes what the cache holds; within one derivative the cache works (a second
// call at the same point reads the value and the derivative the first call left). After the derivative the
// key is the point's, as the program's own call leaves it.
//   f(x) = weight(2 x0) + weight(2 x0) x1, weight(b) = sin(b): df/dx0 = 2 cos(2 x0)(1 + x1), df/dx1 = sin(2 x0)
// Against the analytic derivatives (1e-12), reverse and forward, after a plain call and twice in a row;
// -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double last = -1e300, cached;
static int computed;

static double weight(double b) {
  if (b != last) {
    cached = sin(b);
    last = b;
    computed++;
  }
  return cached;
}

static double f(const double *x) { return weight(2 * x[0]) + weight(2 * x[0]) * x[1]; }

int main(void) {
  double x[2] = {1.0, 0.5};
  double d0 = 2 * cos(2 * x[0]) * (1 + x[1]), d1 = sin(2 * x[0]);
  for (int round = 0; round < 2; round++) {
    CHECK_CLOSE(f(x), sin(2 * x[0]) * (1 + x[1]), 1e-15); /* fills the cache */
    double g[2] = {0};
    __parad_autodiff((void *)f, x, g);
    CHECK_CLOSE(g[0], d0, 1e-12);
    CHECK_CLOSE(g[1], d1, 1e-12);
    double v0[2] = {1, 0}, v1[2] = {0, 1};
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v0), d0, 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v1), d1, 1e-12);
    CHECK_CLOSE(last, 2 * x[0], 0); /* the key as the program's call leaves it */
  }
  int before = computed;
  CHECK_CLOSE(f(x), sin(2 * x[0]) * (1 + x[1]), 1e-15);
  CHECK_CLOSE((double)(computed - before), 0, 0); /* the program's calls still hit */
  return check_done();
}
