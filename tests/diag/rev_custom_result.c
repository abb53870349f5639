// A registered gradient whose parameters are right but whose result is not: pow_dd(double *, double *)
// (libf2c's, all arguments by pointer) given a gradient returning double, a user's natural guess. It was
// told "do not have the expected parameters: the augmented function takes 4 ..., the gradient 5", which
// both did take; the result type is named now. No output file.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <math.h>
#include <parad.h>
double pow_dd(double *a, double *b);
static double pow_dd_aug(double *a, double *da, double *b, double *db) { return pow(*a, *b); }
static double pow_dd_grad(double *a, double *da, double *b, double *db, double dret) {
  *da += dret * *b * pow(*a, *b - 1);
  *db += dret * pow(*a, *b) * log(*a);
  return 0;
}
void *__parad_register_gradient_pow_dd[3] = {(void *)pow_dd, (void *)pow_dd_aug, (void *)pow_dd_grad};

static double model(double *p) {
  double x = 1.7 * p[0];
  // CHECK: rev_custom_result.c:[[@LINE+1]]:{{[0-9]+}}: error: the gradient 'pow_dd_grad' registered for 'pow_dd' must return void: no parameter is a float passed by value (the adjoints of pointer parameters go through their shadows) in function 'model'
  return pow_dd(&x, &p[1]);
}

double pow_dd(double *a, double *b) { return pow(*a, *b); }

int main(void) {
  double p[2] = {1.3, 2.2}, dp[2] = {0, 0};
  __parad_autodiff((void *)model, p, dp);
  return dp[0] > 0;
}
