// Forward mode through setjmp and longjmp: the tangents are values carried beside the program's, so a
// jump out of a callee takes them along as it takes the values (reverse mode refuses the jump:
// tests/diag/nonlocal_jump.c). f returns sum sqrt(x_i) x_i, or 2 x_0 where some x_i < 0 made the callee
// jump back; its tangent along each unit direction against the analytic derivative (1e-12), on inputs
// that take each way, at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <setjmp.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

static jmp_buf on_error;

static double checked_sqrt(double v) {
  if (v < 0) longjmp(on_error, 1);
  return sqrt(v);
}

static double f(double *x, int n) {
  if (setjmp(on_error)) return 2 * x[0];
  double s = 0;
  for (int i = 0; i < n; i++) s += checked_sqrt(x[i]) * x[i];
  return s;
}

int main(void) {
  double fine[3] = {0.5, 2.0, 1.5}, failing[3] = {0.5, -1.0, 1.5};
  for (int k = 0; k < 3; k++) {
    double v[3] = {0, 0, 0};
    v[k] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)f, fine, v, parad_const, 3), 1.5 * sqrt(fine[k]), 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, failing, v, parad_const, 3), k == 0 ? 2.0 : 0.0, 1e-12);
  }
  return check_done();
}
