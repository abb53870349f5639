// Registered derivatives of a function that returns a struct in registers (up to 16 bytes). Before, a
// registered gradient of one was refused as having "not the expected parameters" though written as
// below, or, where the counts happened to agree, generated an invalid call (an internal error).
// The convention: f_augment returns what f returns, or {result, void *tape} (a struct C returns through
// memory); f_gradient takes the adjoint of the result as a struct by value, as C writes it.
//   pair f(x, y) = {y sin x, x^2}, g(x, y) = f.a f.b:
//     dg/dx = y cos x x^2 + y sin x 2x, dg/dy = sin x x^2;
//   through a gradient without a tape (f_plain) and one with a tape (f_taped: cos x kept);
//   labelled(x) = {e^x, n} (an int beside the double, given 0 in the adjoint): h(x) = labelled(x).a^2,
//     dh/dx = 2 e^(2x);
//   forward mode, a registered derivative returning the pair's tangent: dg along (1, 0) and (0, 1).
// Each registered function counts its calls. Against analytic derivatives (1e-12). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

int enzyme_dup;
int enzyme_const;
int enzyme_out;
typedef struct { double dx, dy; } G2;
extern G2 __enzyme_autodiff(void *, ...);
extern double __enzyme_autodiff1(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

typedef struct { double a, b; } pair;
typedef struct { pair value; void *tape; } PairAndTape;
static int augments, gradients, derivatives;

__attribute__((noinline)) pair f_plain(double x, double y) { return (pair){y * sin(x), x * x}; }
pair f_plain_augment(double x, double y) {
  augments++;
  return f_plain(x, y);
}
G2 f_plain_gradient(double x, double y, pair dr) {
  gradients++;
  return (G2){y * cos(x) * dr.a + 2 * x * dr.b, sin(x) * dr.a};
}
void *__enzyme_register_gradient_f_plain[] = {(void *)f_plain, (void *)f_plain_augment, (void *)f_plain_gradient};
pair f_plain_derivative(double x, double dx, double y, double dy) {
  derivatives++;
  return (pair){dy * sin(x) + y * cos(x) * dx, 2 * x * dx};
}
void *__enzyme_register_derivative_f_plain[] = {(void *)f_plain, (void *)f_plain_derivative};

__attribute__((noinline)) pair f_taped(double x, double y) { return (pair){y * sin(x), x * x}; }
PairAndTape f_taped_augment(double x, double y) {
  augments++;
  double *cos_x = malloc(sizeof *cos_x);
  *cos_x = cos(x);
  return (PairAndTape){f_taped(x, y), cos_x};
}
G2 f_taped_gradient(double x, double y, pair dr, void *tape) {
  gradients++;
  double cos_x = *(double *)tape;
  free(tape);
  return (G2){y * cos_x * dr.a + 2 * x * dr.b, sin(x) * dr.a};
}
void *__enzyme_register_gradient_f_taped[] = {(void *)f_taped, (void *)f_taped_augment, (void *)f_taped_gradient};

typedef struct { double a; int n; } labelled_t;
int label = 7;
__attribute__((noinline)) labelled_t labelled(double x) { return (labelled_t){exp(x), label}; }
labelled_t labelled_augment(double x) {
  augments++;
  return labelled(x);
}
double labelled_gradient(double x, labelled_t dr) {
  gradients++;
  return exp(x) * dr.a + dr.n; /* dr.n is 0: an int has no adjoint */
}
void *__enzyme_register_gradient_labelled[] = {(void *)labelled, (void *)labelled_augment, (void *)labelled_gradient};

static double g_plain(double x, double y) {
  pair p = f_plain(x, y);
  return p.a * p.b;
}
static double g_taped(double x, double y) {
  pair p = f_taped(x, y);
  return p.a * p.b;
}
static double h(double x) {
  labelled_t l = labelled(x);
  return l.a * l.a;
}

int main(void) {
  double x = 0.7, y = 1.3;
  double want_dx = y * cos(x) * x * x + y * sin(x) * 2 * x, want_dy = sin(x) * x * x;
  G2 d = __enzyme_autodiff((void *)g_plain, x, y);
  CHECK_CLOSE(d.dx, want_dx, 1e-12);
  CHECK_CLOSE(d.dy, want_dy, 1e-12);
  d = __enzyme_autodiff((void *)g_taped, x, y);
  CHECK_CLOSE(d.dx, want_dx, 1e-12);
  CHECK_CLOSE(d.dy, want_dy, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff1((void *)h, x), 2 * exp(2 * x), 1e-12);
  CHECK_CLOSE(augments, 3, 0);
  CHECK_CLOSE(gradients, 3, 0);

  CHECK_CLOSE(__enzyme_fwddiff((void *)g_plain, x, 1.0, y, 0.0), want_dx, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)g_plain, x, 0.0, y, 1.0), want_dy, 1e-12);
  CHECK_CLOSE(derivatives, 2, 0);
  return check_done();
}
