// The way out of a bit trick's refusal (tests/diag/float_bits_trick_hint.c): a gradient registered for the
// function that does it. The fast inverse square root with one Newton step, its gradient the derivative
// of x^-1/2 at x, from the trick's own result r (-r^3 / 2, times the adjoint); a normalisation through it.
// The gradient against the analytic derivative of v1 / |v| (tolerance 2e-3 relative: the trick's error
// after one step), -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);

static float rsq(float x) {
  int i;
  memcpy(&i, &x, sizeof i);
  i = 0x5f3759df - (i >> 1);
  float y;
  memcpy(&y, &i, sizeof y);
  return y * (1.5f - 0.5f * x * y * y);
}

static float rsq_augment(float x) { return rsq(x); }
static float rsq_gradient(float x, float dret) {
  float r = rsq(x);
  return -0.5f * r * r * r * dret;
}
void *__parad_register_gradient_rsq[3] = {(void *)rsq, (void *)rsq_augment, (void *)rsq_gradient};

float f(const float *v) { return v[1] * rsq(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

int main(void) {
  float v[3] = {0.3f, 0.4f, 1.2f}, dv[3] = {0};
  __parad_autodiff((void *)f, v, dv);
  double n2 = 0.09 + 0.16 + 1.44, n = sqrt(n2);
  for (int j = 0; j < 3; j++) {
    double want = (j == 1 ? 1 / n : 0) - 0.4 * v[j] / (n2 * n);
    CHECK_CLOSE(dv[j], want, 2e-3);
  }
  return check_done();
}
