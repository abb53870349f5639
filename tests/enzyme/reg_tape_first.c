// Registered gradients whose augmented function returns the tape first, {void *tape, result}, the order
// Enzyme's own augmented functions use. Only {result, tape} was accepted; the other order was refused
// ("must return what 'cube' returns"). The two orders are told apart by the fields' types: a double result
// comes back in registers ({ptr, double}), a struct of two doubles through memory ({ptr, {double, double}},
// 24 bytes).
//   cube(x) = x^3 through its registered gradient (the tape keeps x): d/dx sin(cube(x)) = cos(x^3) 3x^2;
//   two(x, y) = {x y, x + y}: d/dx [two.a two.b] = y (x + y) + x y, d/dy = x (x + y) + x y.
// Against analytic derivatives (1e-12), each registered function counting its calls. At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

int enzyme_dup;
int enzyme_const;
int enzyme_out;
typedef struct { double dx, dy; } G2;
extern double __enzyme_autodiff(void *, ...);
extern G2 __enzyme_autodiff2(void *, ...);

static int augments, gradients;

__attribute__((noinline)) double cube(double x) { return x * x * x; }
typedef struct { void *tape; double result; } TapeAndResult;
TapeAndResult cube_augment(double x) {
  augments++;
  double *kept = malloc(sizeof *kept);
  *kept = x;
  return (TapeAndResult){kept, cube(x)};
}
double cube_gradient(double x, double dr, void *tape) {
  gradients++;
  double y = *(double *)tape;
  free(tape);
  (void)x;
  return 3 * y * y * dr;
}
void *__enzyme_register_gradient_cube[] = {(void *)cube, (void *)cube_augment, (void *)cube_gradient};

typedef struct { double a, b; } pair;
typedef struct { void *tape; pair result; } TapeAndPair;
__attribute__((noinline)) pair two(double x, double y) { return (pair){x * y, x + y}; }
TapeAndPair two_augment(double x, double y) {
  augments++;
  return (TapeAndPair){NULL, two(x, y)};
}
G2 two_gradient(double x, double y, pair dr, void *tape) {
  gradients++;
  (void)tape;
  return (G2){y * dr.a + dr.b, x * dr.a + dr.b};
}
void *__enzyme_register_gradient_two[] = {(void *)two, (void *)two_augment, (void *)two_gradient};

static double f(double x) { return sin(cube(x)); }
static double g(double x, double y) {
  pair p = two(x, y);
  return p.a * p.b;
}

int main(void) {
  double x = 0.7, y = 1.3;
  CHECK_CLOSE(__enzyme_autodiff((void *)f, x), cos(x * x * x) * 3 * x * x, 1e-12);
  G2 d = __enzyme_autodiff2((void *)g, x, y);
  CHECK_CLOSE(d.dx, y * (x + y) + x * y, 1e-12);
  CHECK_CLOSE(d.dy, x * (x + y) + x * y, 1e-12);
  CHECK_CLOSE(augments, 2, 0);
  CHECK_CLOSE(gradients, 2, 0);
  return check_done();
}
