// A debug build (-O0) of a model in the style of generated embedded code: global records of states and
// parameters, an integer tick counter and a flag beside the double states (`rtDW.clockTickCounter++`).
// The derivatives are made from optimised copies, in which a field of a global is a constant
// getelementptr of bytes, and at -O0 no access carries a type tag: the counter's word was taken for a
// double's bits ("integer arithmetic on the bits of an active floating-point value"), the copies were
// refused, and the code as compiled was differentiated instead: 26 primals against 0.8. The global's own
// type places the access now (analysis/memtype.c, placement).
// The gradient against central differences (h = 1e-6, tolerance 1e-6 relative), and the build says
// nothing of the copies refused (-v).
// RUN: %parad-cc -O0 -I%S/../include %s -o %t -lm && %t
// RUN: %parad-cc -O0 -v -I%S/../include %s -o %t1 -lm 2>&1 | not grep "copies refused"
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);

typedef struct {
  double x[2];
  int clockTickCounter;
  unsigned char active;
  double integral;
} DW;
typedef struct {
  double A[4];
  double B[2];
  double K;
  int period;
} P;

DW rtDW;
P rtP = {{0.995, -0.02, 0.01, 0.98}, {0.0, 0.01}, 2.0, 7};
double rtY;

void step(double ref) {
  double xnew[2];
  double u = rtP.K * (ref - rtDW.x[0]);
  if (rtDW.active) u += 0.1 * rtDW.integral;
  xnew[0] = rtP.A[0] * rtDW.x[0] + rtP.A[2] * rtDW.x[1] + rtP.B[0] * u;
  xnew[1] = rtP.A[1] * rtDW.x[0] + rtP.A[3] * rtDW.x[1] + rtP.B[1] * u;
  memcpy(&rtDW.x[0], xnew, sizeof(double) << 1U);
  rtY = rtDW.x[0];
  if (++rtDW.clockTickCounter >= rtP.period) { /* a sampled integrator, every period ticks */
    rtDW.clockTickCounter = 0;
    rtDW.active = 1;
    rtDW.integral += ref - rtY;
  }
}

double cost(double K) {
  double J = 0;
  rtP.K = K;
  memset(&rtDW, 0, sizeof rtDW);
  for (int k = 0; k < 2000; k++) {
    step(1.0);
    J += (rtY - 1.0) * (rtY - 1.0);
  }
  return J;
}

static double cost_of(void *ctx, double K) { return (void)ctx, cost(K); }

int main(void) {
  double K = 2.0;
  double g = __parad_autodiff((void *)cost, K);
  CHECK_CLOSE(g, fd_central(cost_of, NULL, K, 1e-6), 1e-6);
  CHECK_CLOSE(rtDW.clockTickCounter, 2000 % 7, 0);
  return check_done();
}
