// A registered gradient whose functions do not have the parameters the convention asks for is refused
// at the call, with what was expected.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
double __parad_autodiff(void *, ...);
double ext(double x, double *scratch);
static double aug_ext(double x) { return x; }
static double grad_ext(double x, double d) { return d; }
void *__parad_register_gradient_ext[3] = {(void *)ext, (void *)aug_ext, (void *)grad_ext};

static double f(double x) {
  double s[1];
  // CHECK: rev_custom_type.c:[[@LINE+1]]:{{[0-9]+}}: error: the functions registered for 'ext' do not have the expected parameters: the augmented function takes 3 (each pointer followed by its shadow), the gradient 4 (then the adjoint of the result, then the tape) and returns the adjoints of the 1 floating-point parameters in function 'f'
  return ext(x, s) * 2;
}

int main(void) { return (int)__parad_autodiff((void *)f, 1.0); }
