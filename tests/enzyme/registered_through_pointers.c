// What a program registers for a function holds where the function is reached through a pointer too (a
// table of functions, a callback argument), as it does at a direct call: an inactive function
// (__enzyme_inactivefn), a registered gradient and a registered derivative of a function whose body is
// visible (a series rule that replaces it), and both of a function whose body is in an object plain clang
// built. Through a pointer the body was differentiated instead, with no message (the inactive function's
// derivative and the body's in place of the rule), and the external function's call stopped the program.
//   inactive: f = x scale(x), scale inactive            f' = scale(x) = 1 + x^2
//   series:   f = x approx(x), approx' registered as e^x  f' = approx(x) + x e^x
//   external: f = ext_cubic(x) with rules 3 x^2 dx       f' = 3 x^2
// Both modes, direct and through a table and a callback, against those (1e-12).
// RUN: %clang -O2 -c %S/Inputs/cubic.c -o %t.cubic.o
// RUN: %parad-cc %cflags %s %t.cubic.o -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s %t.cubic.o -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double scale(double x) { return 1.0 + x * x; }
void *__enzyme_inactivefn[] = {(void *)scale};

/* a truncated series for e^x, whose registered rules give e^x's derivative */
__attribute__((noinline)) double approx(double x) { return 1 + x + x * x / 2 + x * x * x / 6; }
double approx_aug(double x) { return approx(x); }
double approx_grad(double x, double dr) { return exp(x) * dr; }
void *__enzyme_register_gradient_approx[3] = {(void *)approx, (void *)approx_aug, (void *)approx_grad};
double approx_fwd(double x, double dx) { return exp(x) * dx; }
void *__enzyme_register_derivative_approx[2] = {(void *)approx, (void *)approx_fwd};

double ext_cubic(double x);
double cubic_aug(double x) { return ext_cubic(x); }
double cubic_grad(double x, double dr) { return 3 * x * x * dr; }
void *__enzyme_register_gradient_ext_cubic[3] = {(void *)ext_cubic, (void *)cubic_aug, (void *)cubic_grad};
double cubic_fwd(double x, double dx) { return 3 * x * x * dx; }
void *__enzyme_register_derivative_ext_cubic[2] = {(void *)ext_cubic, (void *)cubic_fwd};

typedef double (*Fn)(double);
static Fn table[3] = {scale, approx, ext_cubic};

static double direct(double x, int k) { return k == 0 ? x * scale(x) : k == 1 ? x * approx(x) : ext_cubic(x); }
static double through_table(double x, int k) { return k == 2 ? table[k](x) : x * table[k](x); }
__attribute__((noinline)) static double call_back(Fn f, double x, int k) { return k == 2 ? f(x) : x * f(x); }
static double with_callback(double x, int k) { return call_back(table[k], x, k); }

int main(void) {
  double x = 0.5;
  double want[3] = {1 + x * x, approx(x) + x * exp(x), 3 * x * x};
  for (int k = 0; k < 3; k++) {
    CHECK_CLOSE(__enzyme_autodiff((void *)direct, x, enzyme_const, k), want[k], 1e-12);
    CHECK_CLOSE(__enzyme_fwddiff((void *)direct, x, 1.0, enzyme_const, k), want[k], 1e-12);
    CHECK_CLOSE(__enzyme_autodiff((void *)through_table, x, enzyme_const, k), want[k], 1e-12);
    CHECK_CLOSE(__enzyme_fwddiff((void *)through_table, x, 1.0, enzyme_const, k), want[k], 1e-12);
    CHECK_CLOSE(__enzyme_autodiff((void *)with_callback, x, enzyme_const, k), want[k], 1e-12);
    CHECK_CLOSE(__enzyme_fwddiff((void *)with_callback, x, 1.0, enzyme_const, k), want[k], 1e-12);
  }
  return check_done();
}
