// A function with a 5 MiB local array (a work buffer of 655360 doubles), which runs in an 8 MiB stack,
// and a program that asks for its gradient and its tangents. The derivative's copy of the array sat on the
// stack beside the program's own (inlined into main: 10 MiB), and forward mode's shadow beside the copy:
// the program crashed at once, before anything ran. Such arrays (1 MiB and more) are on the heap in the
// derivatives now: until the tape ends in reverse mode, until the tangent function returns in forward mode
// (reverse/rev_memory.c, forward/fwd_memory.c).
//   buf_0 = p0, buf_i = 0.9999999 buf_{i-1} + 1e-6 p1 sin(p0); f = sum over every 1000th i of buf_i^2
// The gradient against central differences (h = 1e-4, 1e-5: each value is rounded 655360 times, which
// smaller steps magnify), the tangents along each unit direction and both at once (vector mode) against
// the gradient (1e-9: sums of as many roundings in another order), under an 8 MiB stack. At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && ulimit -s 8192 && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && ulimit -s 8192 && %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
typedef struct {
  double d[2];
} Two;
Two __parad_fwddiff_v(void *, ...);

enum { N = 5 * 131072 };

double f(const double *p) {
  double buf[N];
  buf[0] = p[0];
  double step = 1e-6 * p[1] * sin(p[0]);
  for (int i = 1; i < N; i++) buf[i] = buf[i - 1] * 0.9999999 + step;
  double s = 0;
  for (int i = 0; i < N; i += 1000) s += buf[i] * buf[i];
  return s;
}

int main(void) {
  double p[2] = {1.0, 0.5}, g[2] = {0, 0}, e0[2] = {1, 0}, e1[2] = {0, 1};
  double value = f(p);
  CHECK_CLOSE(isfinite(value), 1, 0);
  __parad_autodiff((void *)f, p, g);
  double t0 = __parad_fwddiff((void *)f, p, e0), t1 = __parad_fwddiff((void *)f, p, e1);
  Two both = __parad_fwddiff_v((void *)f, parad_width, 2, p, e0, e1);
  for (int j = 0; j < 2; j++) {
    double q[2] = {p[0], p[1]}, r[2] = {p[0], p[1]};
    q[j] += 1e-4, r[j] -= 1e-4;
    CHECK_CLOSE(g[j], (f(q) - f(r)) / 2e-4, 1e-5);
  }
  CHECK_CLOSE(t0, g[0], 1e-9);
  CHECK_CLOSE(t1, g[1], 1e-9);
  CHECK_CLOSE(both.d[0], g[0], 1e-9);
  CHECK_CLOSE(both.d[1], g[1], 1e-9);
  return check_done();
}
