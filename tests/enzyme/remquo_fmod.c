// Remainders, written as Enzyme's users write them, in both modes: r = x - n y with n an integer, so
// dr/dx = 1 and dr/dy = -n, where n is x/y rounded towards zero (fmod, and the frem instruction clang
// makes of fmod with -fno-math-errno) or to nearest, ties to even (remainder, remquo; remquo's int
// output has no derivative). n is that of the exact quotient: 1/0.1 rounds to 10.0 in double, but 0.1 is a
// little more than a tenth, so fmod(1, 0.1) = 0.0999... with n = 9, and remainder(1, 0.1) has n = 10.
// Against analytic derivatives (1e-12; float functions 1e-6) and central differences (1e-6).
// At -O2 and -O0, and at -O2 with -fno-math-errno.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags -fno-math-errno %s -o %t1 -lm && %t1
#include <math.h>
#include "check.h"

typedef struct {
  double dx, dy;
} Grad;
extern Grad __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;

static double f_fmod(double x, double y) { return fmod(x, y); }
static double f_remainder(double x, double y) { return remainder(x, y); }
static double f_remquo(double x, double y) {
  int q;
  return remquo(x, y, &q);
}
static double f_fmodf(double x, double y) { return fmodf((float)x, (float)y); }
static double f_remquof(double x, double y) {
  int q;
  return remquof((float)x, (float)y, &q);
}
/* the remainder used further on: d/dy of r^2 = -2 n r */
static double squared(double x, double y) {
  double r = remainder(x, y);
  return r * r;
}

typedef double (*Fn)(double, double);
typedef struct {
  Fn f;
  double x;
} AtX;
static double along_y(void *ctx, double y) { return ((AtX *)ctx)->f(((AtX *)ctx)->x, y); }

/* the derivative request names the function: a macro, not a function taking a pointer */
#define CHECK_REMAINDER(f, x, y, n, tol)                                                     \
  do {                                                                                       \
    Grad g = __enzyme_autodiff((void *)f, (double)(x), (double)(y));                         \
    CHECK_CLOSE(g.dx, 1, tol);                                                               \
    CHECK_CLOSE(g.dy, -(n), tol);                                                            \
    CHECK_CLOSE(__enzyme_fwddiff((void *)f, (double)(x), 1.0, (double)(y), 0.0), 1, tol);    \
    CHECK_CLOSE(__enzyme_fwddiff((void *)f, (double)(x), 0.0, (double)(y), 1.0), -(n), tol); \
  } while (0)

int main(void) {
  /* 5.3 / 1.5 = 3.53: fmod n = 3, remainder n = 4 */
  CHECK_REMAINDER(f_fmod, 5.3, 1.5, 3, 1e-12);
  CHECK_REMAINDER(f_remainder, 5.3, 1.5, 4, 1e-12);
  CHECK_REMAINDER(f_remquo, 5.3, 1.5, 4, 1e-12);
  CHECK_REMAINDER(f_fmodf, 5.3, 1.5, 3, 1e-6);
  CHECK_REMAINDER(f_remquof, 5.3, 1.5, 4, 1e-6);
  /* negative quotient: -7.25 / 2 = -3.625 */
  CHECK_REMAINDER(f_fmod, -7.25, 2, -3, 1e-12);
  CHECK_REMAINDER(f_remainder, -7.25, 2, -4, 1e-12);
  CHECK_REMAINDER(f_remquo, -7.25, 2, -4, 1e-12);
  /* a tie goes to the even quotient: 5 / 2 = 2.5, n = 2 */
  CHECK_REMAINDER(f_remainder, 5, 2, 2, 1e-12);
  CHECK_REMAINDER(f_remquo, 5, 2, 2, 1e-12);
  /* 1 / 0.1 rounds to 10 but is less: fmod's n is 9, remainder's 10 */
  CHECK_REMAINDER(f_fmod, 1, 0.1, 9, 1e-12);
  CHECK_REMAINDER(f_remainder, 1, 0.1, 10, 1e-12);
  CHECK_REMAINDER(f_remquo, 1, 0.1, 10, 1e-12);
  double h = 1e-7; /* one side: y = 0.1 is at fmod's jump */
  CHECK_CLOSE((fmod(1, 0.1 + h) - fmod(1, 0.1)) / h, -9, 1e-6);

  /* central differences, along y, away from the jumps */
  AtX at[3] = {{f_fmod, 5.3}, {f_remainder, 5.3}, {f_remquo, 5.3}};
  Grad g[3] = {__enzyme_autodiff((void *)f_fmod, 5.3, 1.5), __enzyme_autodiff((void *)f_remainder, 5.3, 1.5),
               __enzyme_autodiff((void *)f_remquo, 5.3, 1.5)};
  for (int k = 0; k < 3; k++) CHECK_CLOSE(g[k].dy, fd_central(along_y, &at[k], 1.5, 1e-5), 1e-6);
  Grad gs = __enzyme_autodiff((void *)squared, 5.3, 1.5);
  double r = remainder(5.3, 1.5);
  CHECK_CLOSE(gs.dx, 2 * r, 1e-12);
  CHECK_CLOSE(gs.dy, -2 * 4 * r, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)squared, 5.3, 0.0, 1.5, 1.0), -2 * 4 * r, 1e-12);
  return check_done();
}
