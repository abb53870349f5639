// Side effects without derivatives inside a function differentiated in reverse mode: printf of active
// values, a global call counter and iteration counter, and abort()/exit() on paths never taken. The
// forward sweep runs them exactly once per gradient (the reverse sweep must not repeat them), also in
// split mode where the augmented forward prints and the reverse prints nothing. Gradient against the
// analytic derivative (tolerance 1e-12), forward tangents (1e-12) and central finite differences
// (h = 1e-6, tolerance 1e-7); counters exactly; the printed text with FileCheck.
// RUN: %parad-cc %cflags %s -o %t && %t | FileCheck %s
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void *__parad_augmentfwd(void *, ...);
double __parad_reverse(void *, ...);
extern int parad_tape;

static int calls;
static long iterations;

__attribute__((noinline)) static double traced(double x, int n) {
  calls++;
  if (!(x == x) || n < 0) abort();
  double y = 1;
  for (int i = 0; i < n; i++) {
    y = y * x + sin(y);
    iterations++;
  }
  printf("traced: x=%.3f y=%.6f\n", x, y);
  if (y > 1e300) {
    fprintf(stderr, "overflow\n");
    exit(3);
  }
  return y * y;
}

static double plain(void *ctx, double x) {
  double y = 1;
  (void)ctx;
  for (int i = 0; i < 4; i++) y = y * x + sin(y);
  return y * y;
}

int main(void) {
  double x = 0.75, y = 1, dy = 0;
  for (int i = 0; i < 4; i++) {
    double ny = y * x + sin(y);
    dy = dy * (x + cos(y)) + y;
    y = ny;
  }
  // CHECK: traced: x=0.750 y=[[Y:[0-9.]+]]
  double g = __parad_autodiff((void *)traced, x, 4);
  CHECK_CLOSE(g, 2 * y * dy, 1e-12);
  CHECK_CLOSE(calls, 1, 0);
  CHECK_CLOSE(iterations, 4, 0);
  printf("after autodiff\n");
  // CHECK-NEXT: after autodiff
  // CHECK-NEXT: traced: x=0.750 y=[[Y]]
  void *tape = __parad_augmentfwd((void *)traced, x, 4);
  printf("after augmentfwd\n");
  // CHECK-NEXT: after augmentfwd
  double g2 = __parad_reverse((void *)traced, x, 4, 3.0, parad_tape, tape);
  printf("after reverse\n");
  // CHECK-NEXT: after reverse
  CHECK_CLOSE(g2, 3 * g, 1e-12);
  CHECK_CLOSE(calls, 2, 0);
  CHECK_CLOSE(iterations, 8, 0);
  // CHECK-NEXT: traced: x=0.750 y=[[Y]]
  CHECK_CLOSE(g, __parad_fwddiff((void *)traced, x, 1.0, 4), 1e-12);
  CHECK_CLOSE(calls, 3, 0);
  CHECK_CLOSE(g, fd_central(plain, 0, x, 1e-6), 1e-7);
  // CHECK-NEXT: {{[0-9]+}} checks passed
  return check_done();
}
