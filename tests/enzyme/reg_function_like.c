// Functions differentiated as the math function they stand for, as Enzyme programs say it:
//   __enzyme_function_like = {my_log, "log"}: my_log is a series for log whose own derivative is not 1/x
//   to rounding; differentiated as log, its derivative is 1/x;
//   __attribute__((enzyme_function_like("exp"))) on my_exp (a truncated series): derivative my_exp(x)
//   (log's rule gives 1/x, exp's gives the result);
//   {my_pow, "pow"} (two arguments): pow's rule, d/dx = y pow(x, y - 1), d/dy = log(x) my_pow(x, y) (the
//   rule's log is libm's, its result my_pow's);
//   f(x, y) = my_log(x) + my_exp(x) + my_pow(x, y).
// Reverse and forward mode, against the rules' derivatives (1e-12). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

int enzyme_dup;
int enzyme_const;
int enzyme_out;
extern double __enzyme_fwddiff(void *, ...);
typedef struct { double dx, dy; } G2;
extern G2 __enzyme_autodiff(void *, ...);

double my_log(double x) { /* 2 atanh((x - 1) / (x + 1)), to a few terms */
  double t = (x - 1) / (x + 1), s = 0, p = t;
  for (int i = 1; i < 12; i += 2, p *= t * t) s += 2 * p / i;
  return s;
}
void *__enzyme_function_like[2] = {(void *)my_log, (void *)"log"};

__attribute__((enzyme_function_like("exp"))) double my_exp(double x) {
  double s = 1, t = 1;
  for (int i = 1; i < 8; i++) s += (t *= x / i);
  return s;
}

double my_pow(double x, double y) { return exp(y * my_log(x)); }
void *__enzyme_function_like_pow[2] = {(void *)my_pow, (void *)"pow"};

static double f(double x, double y) { return my_log(x) + my_exp(x) + my_pow(x, y); }

int main(void) {
  double x = 1.4, y = 0.8;
  double px = my_pow(x, y);
  double want_x = 1 / x + my_exp(x) + y * pow(x, y - 1), want_y = log(x) * px;
  G2 g = __enzyme_autodiff((void *)f, x, y);
  CHECK_CLOSE(g.dx, want_x, 1e-12);
  CHECK_CLOSE(g.dy, want_y, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)f, x, 1.0, y, 0.0), want_x, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_const, x, y, 1.0), want_y, 1e-12);
  return check_done();
}
