// A custom gradient (__enzyme_register_gradient_NAME) whose augmented forward function returns void:
// neither f's result nor a tape. f's result, which the caller uses, then comes from f itself.
//   cube(x) = x^3 with the registered gradient 3 x^2 dr; g(x) = cube(x) sin x + cube(2x):
//   g'(x) = 3 x^2 sin x + x^3 cos x + 24 x^2 (1e-12), the augmented function and the gradient each
//   called once per use of cube; a request naming cube itself uses the gradient too; the primal value g(x)
//   through __enzyme_augmentfwd (1e-15).
//   shifted(p, s): *p += 2 s, a void function with a void augmented function (no tape);
//   h(x, s) = (x^2 + 2 s)^2 through it: dh/dx = 4 x (x^2 + 2 s), dh/ds = 4 (x^2 + 2 s) (1e-12).
// At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

int enzyme_dup;
int enzyme_const;
int enzyme_out;
extern double __enzyme_autodiff(void *, ...);
typedef struct { void *tape; double value; } TapeAndValue;
extern TapeAndValue __enzyme_augmentfwd(void *, ...);
extern double __enzyme_reverse(void *, ...);

static int augments, gradients;

__attribute__((noinline)) double cube(double x) { return x * x * x; }
void cube_augment(double x) { (void)x; augments++; }
double cube_gradient(double x, double dr) {
  gradients++;
  return 3 * x * x * dr;
}
void *__enzyme_register_gradient_cube[3] = {(void *)cube, (void *)cube_augment, (void *)cube_gradient};

__attribute__((noinline)) void shifted(double *p, double s) { *p += 2 * s; }
void shifted_augment(double *p, double *dp, double s) {
  (void)dp;
  augments++;
  *p += 2 * s;
}
double shifted_gradient(double *p, double *dp, double s) {
  (void)p, (void)s;
  gradients++;
  return 2 * *dp; /* the adjoint of p goes through unchanged */
}
void *__enzyme_register_gradient_shifted[3] = {(void *)shifted, (void *)shifted_augment, (void *)shifted_gradient};

static double g(double x) { return cube(x) * sin(x) + cube(2 * x); }

static double h(double x, double s) {
  double p = x * x;
  shifted(&p, s);
  return p * p;
}

int main(void) {
  double x = 0.9;
  double dg = __enzyme_autodiff((void *)g, x);
  CHECK_CLOSE(dg, 3 * x * x * sin(x) + x * x * x * cos(x) + 24 * x * x, 1e-12);
  CHECK_CLOSE(augments, 2, 0);
  CHECK_CLOSE(gradients, 2, 0);

  /* a request naming cube itself uses its gradient, as Enzyme does */
  CHECK_CLOSE(__enzyme_autodiff((void *)cube, x), 3 * x * x, 1e-12);
  CHECK_CLOSE(gradients, 3, 0);

  TapeAndValue tv = __enzyme_augmentfwd((void *)g, x);
  CHECK_CLOSE(tv.value, g(x), 1e-15);
  CHECK_CLOSE(__enzyme_reverse((void *)g, x, 1.0, tv.tape), dg, 1e-12);

  typedef struct { double dx, ds; } G2;
  extern G2 __enzyme_autodiff2(void *, ...);
  augments = gradients = 0;
  G2 d = __enzyme_autodiff2((void *)h, x, 1.5);
  CHECK_CLOSE(d.dx, 4 * x * (x * x + 3), 1e-12);
  CHECK_CLOSE(d.ds, 4 * (x * x + 3), 1e-12);
  CHECK_CLOSE(augments + gradients, 2, 0);
  return check_done();
}
