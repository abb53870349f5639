// Registered derivatives of functions returning a struct: what is refused, with the reason, where before
// an internal error ("invalid code", a call's parameter type not matching) or a misleading count came.
//   a struct returned through memory (more than 16 bytes, sret), in reverse and forward mode;
//   a gradient that takes a {double, int} result's adjoint as a double alone (its count is one short);
//   a gradient that takes a pair's adjoint as floats where the pair's parts are doubles (a type).
// file:line:col, the functions, non-zero exit, no output file. Supported shapes:
// tests/enzyme/reg_struct_result.c.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <math.h>
typedef struct { double a, b, c; } tri;
typedef struct { double a; int n; } labelled_t;
typedef struct { double a, b; } pair;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) tri t(double x) { return (tri){x, x * x, sin(x)}; }
tri t_augment(double x) { return t(x); }
double t_gradient(double x, tri dr) { return dr.a + 2 * x * dr.b + cos(x) * dr.c; }
void *__enzyme_register_gradient_t[] = {(void *)t, (void *)t_augment, (void *)t_gradient};
tri t_derivative(double x, double dx) { return (tri){dx, 2 * x * dx, cos(x) * dx}; }
void *__enzyme_register_derivative_t[] = {(void *)t, (void *)t_derivative};

int label = 2;
__attribute__((noinline)) labelled_t l(double x) { return (labelled_t){exp(x), label}; }
labelled_t l_augment(double x) { return l(x); }
double l_gradient(double x, double da) { return exp(x) * da; }
void *__enzyme_register_gradient_l[] = {(void *)l, (void *)l_augment, (void *)l_gradient};

__attribute__((noinline)) pair p(double x) { return (pair){x, x * x}; }
pair p_augment(double x) { return p(x); }
double p_gradient(double x, float da, float db) { return da + 2 * x * db; }
void *__enzyme_register_gradient_p[] = {(void *)p, (void *)p_augment, (void *)p_gradient};

static double of_t(double x) {
  // CHECK-DAG: reg_struct_result.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot use the gradient registered for 't': 't' returns a struct through memory (more than 16 bytes), which registered gradients do not take yet; write the result through a pointer parameter instead (the gradient then finds its adjoint in that pointer's shadow) in function 'of_t'
  // CHECK-DAG: reg_struct_result.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot use the derivative 't_derivative' registered for 't': 't' returns a struct through memory (more than 16 bytes), which registered derivatives do not take yet; write the result through a pointer parameter instead (the derivative then gets that pointer's shadow) in function 'of_t'
  tri r = t(x);
  return r.a + r.b * r.c;
}
static double of_l(double x) {
  // CHECK-DAG: reg_struct_result.c:[[@LINE+1]]:{{[0-9]+}}: error: the functions registered for 'l' do not have the expected parameters: the augmented function takes 1 (each pointer followed by its shadow), the gradient 3 (then the adjoint of the result, then the tape) and returns the adjoints of the 1 floating-point parameters in function 'of_l'
  return l(x).a * 3;
}
static double of_p(double x) {
  // CHECK-DAG: reg_struct_result.c:[[@LINE+1]]:{{[0-9]+}}: error: parameter #2 of 'p_gradient', registered for 'p', does not have the type of what is passed there: the call's arguments (each pointer followed by its shadow), then, to the gradient, the adjoint of the result (a struct's by its parts) and the tape in function 'of_p'
  pair r = p(x);
  return r.a * r.b;
}

int main(void) {
  return __enzyme_autodiff((void *)of_t, 0.5) + __enzyme_fwddiff((void *)of_t, 0.5, 1.0) +
         __enzyme_autodiff((void *)of_l, 0.5) + __enzyme_autodiff((void *)of_p, 0.5) > 0;
}
