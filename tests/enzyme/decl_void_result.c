// Entry points declared returning double, as Enzyme programs declare them once for every call, used on a
// function that returns nothing (an output array): the call's result is 0, the derivatives land in the
// shadows. Reverse and forward mode, and a struct result (returned in memory) that is zeroed too.
//   f(x, y): y0 = x0^3, y1 = x1^2 x0, y2 = sin(x0 x1)
//   reverse, seed dy = (1, 2, -1): dx0 = 3 x0^2 + 2 x1^2 - x1 cos(x0 x1), dx1 = 4 x0 x1 - x0 cos(x0 x1)
//   forward along (1, 0.5): dy = (3 x0^2, x1^2 + x0 x1, cos(x0 x1) (x1 + 0.5 x0))
// Against the analytic derivatives (1e-12). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

int enzyme_dup;
int enzyme_const;
int enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
typedef struct { double a, b, c; } Three; /* returned in memory (sret) */
extern Three __enzyme_autodiff3(void *, ...);

static void f(const double *x, double *y) {
  y[0] = x[0] * x[0] * x[0];
  y[1] = x[1] * x[1] * x[0];
  y[2] = sin(x[0] * x[1]);
}

int main(void) {
  double x[2] = {0.8, -1.3}, y[3];
  double c = cos(x[0] * x[1]);
  double want0 = 3 * x[0] * x[0] + 2 * x[1] * x[1] - x[1] * c, want1 = 4 * x[0] * x[1] - x[0] * c;

  double dx[2] = {0, 0}, dy[3] = {1, 2, -1};
  double r = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
  CHECK_CLOSE(r, 0.0, 0);
  CHECK_CLOSE(dx[0], want0, 1e-12);
  CHECK_CLOSE(dx[1], want1, 1e-12);

  double ex[2] = {0, 0}, ey[3] = {1, 2, -1};
  Three z = __enzyme_autodiff3((void *)f, x, ex, y, ey);
  CHECK_CLOSE(z.a + z.b + z.c, 0.0, 0);
  CHECK_CLOSE(ex[0], want0, 1e-12);

  double tx[2] = {1, 0.5}, ty[3] = {0, 0, 0};
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_dup, y, ty);
  CHECK_CLOSE(t, 0.0, 0);
  CHECK_CLOSE(ty[0], 3 * x[0] * x[0], 1e-12);
  CHECK_CLOSE(ty[1], x[1] * x[1] + x[0] * x[1], 1e-12);
  CHECK_CLOSE(ty[2], c * (x[1] + 0.5 * x[0]), 1e-12);
  CHECK_CLOSE(y[1], x[1] * x[1] * x[0], 1e-15);
  return check_done();
}
