// Nested checkpointed loops whose inner loop swaps two pointers to the function's arrays, the outer loop
// only handing them to it (they are read and written by the inner loop, never loaded by the outer one).
// The outer loop took them for temporaries of a swap ("written before read": they have no load of their
// own there), so the shadows did not follow the swaps: after an odd number of swaps the reverse sweep
// used each pointer's shadow from before the loops (fuzzer, serial seed 14619). After the loops the
// program writes through p1 and reads through both:
//   a1 = x0 (every element), a0 = 1/2; S = outer * inner swaps; p1[0] = 1/2 overwrites a1 when S is odd;
//   f = 3 p1[0] + p0[0] + 2 a1[1]: df/dx0 = 2 when S is odd (p0 = a0), 3 when it is even (p0 = a1).
// Gradients against the analytic ones and forward mode (1e-12), for inner trip counts 1 to 3 and outer 1
// to 2, at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void __parad_checkpoint_loop(void);

__attribute__((noinline)) static double f(const double *x, int outer, int inner) {
  double a0[4], a1[4];
  for (int i = 0; i < 4; i++) a0[i] = 0.5, a1[i] = x[0];
  double *p0 = a1, *p1 = a0;
  for (int i = 0; i < outer; i++) {
    __parad_checkpoint_loop();
    for (int j = 0; j < inner; j++) {
      __parad_checkpoint_loop();
      double *t = p0;
      p0 = p1, p1 = t;
    }
  }
  p1[0] = 0.5;
  return 3 * p1[0] + p0[0] + 2 * a1[1];
}

/* S odd: p1 = a1 (its first element overwritten), p0 = a0: 2; S even: p1 = a0, p0 = a1: 1 + 2 */
static double want(int outer, int inner) { return (outer * inner) % 2 ? 2 : 3; }

int main(void) {
  for (int outer = 1; outer <= 2; outer++)
    for (int inner = 1; inner <= 3; inner++) {
      double x[1] = {0.7}, g[1] = {0}, v[1] = {1};
      __parad_autodiff((void *)f, x, g, parad_const, outer, parad_const, inner);
      CHECK_CLOSE(g[0], want(outer, inner), 1e-12);
      CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, parad_const, outer, parad_const, inner), want(outer, inner), 1e-12);
    }
  return check_done();
}
