// A differentiated function built with UBSan's floating-point checks (-fsanitize=float-divide-by-zero,
// float-cast-overflow): the checks hand the value's bits to a reporting handler (__ubsan_handle_*), which
// was taken for a call moving an active float's bits (refused). The handlers only report. f = 1 / x^2 +
// (int)(10 x) x; gradient and tangent against -2 / x^3 + (int)(10 x) (1e-14), under both sanitizers.
// RUN: %parad-cc %cflags -fsanitize=float-divide-by-zero,float-cast-overflow %s -o %t -lm && %t
// RUN: %parad-cc %cflags -fsanitize=undefined,float-divide-by-zero %s -o %t2 -lm && %t2
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

double f(double x) { return 1 / (x * x) + (int)(10 * x) * x; }

int main(void) {
  const double at[3] = {0.35, 1.5, -2.25};
  for (int k = 0; k < 3; k++) {
    double x = at[k], want = -2 / (x * x * x) + (int)(10 * x);
    CHECK_CLOSE(__parad_autodiff((void *)f, x), want, 1e-14);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, 1.0), want, 1e-14);
  }
  return check_done();
}
