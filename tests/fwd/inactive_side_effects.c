// Side effects that carry no derivative inside the differentiated function: printf of an active value
// (the primal value must be printed, once per call), a global integer call counter incremented on every
// call (the primal side effect happens exactly once per derivative call), and abort() on a path never
// taken. The tangent is checked against the analytic derivative (tolerance 1e-12), the counter exactly,
// and the printed text with FileCheck.
// RUN: %parad-cc %cflags %s -o %t && %t | FileCheck %s
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

static int calls;
static long iterations;

__attribute__((noinline)) static double traced(double x, int n) {
  calls++;
  if (!(x == x) || n < 0) abort(); /* never taken here */
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

static double plain(void *ctx, double x) { /* traced() without the side effects */
  double y = 1;
  (void)ctx;
  for (int i = 0; i < 4; i++) y = y * x + sin(y);
  return y * y;
}

int main(void) {
  /* y_{k+1} = y_k x + sin y_k; dy_{k+1} = dy_k (x + cos y_k) + y_k */
  double x = 0.75, y = 1, dy = 0;
  for (int i = 0; i < 4; i++) {
    double ny = y * x + sin(y);
    dy = dy * (x + cos(y)) + y;
    y = ny;
  }
  // CHECK: traced: x=0.750 y=[[Y:[0-9.]+]]
  double d = __parad_fwddiff((void *)traced, x, 1.0, 4);
  CHECK_CLOSE(d, 2 * y * dy, 1e-12);
  CHECK_CLOSE(calls, 1, 0);
  CHECK_CLOSE(iterations, 4, 0);
  // CHECK-NEXT: traced: x=0.750 y=[[Y]]
  double d2 = __parad_fwddiff((void *)traced, x, 3.0, parad_const, 4);
  CHECK_CLOSE(d2, 6 * y * dy, 1e-12);
  CHECK_CLOSE(calls, 2, 0);
  CHECK_CLOSE(iterations, 8, 0);
  CHECK_CLOSE(d, fd_central(plain, 0, x, 1e-6), 1e-7);
  // CHECK-NEXT: {{[0-9]+}} checks passed
  return check_done();
}
