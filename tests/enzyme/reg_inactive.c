// Inactive functions and globals, registered as Enzyme programs register them and with Enzyme's attribute
// (which parad-cc honours without a header):
//   __enzyme_inactivefn[] = {scale}, and __attribute__((enzyme_inactive)) on twice: calls of them carry
//   no derivative: d/da (scale(a) + twice(a) + a^2) = 2 a;
//   __enzyme_inactive_global = &last (one address) and an array of addresses {history, &count_sum}, and
//   __attribute__((enzyme_inactive)) on trace: values stored into them lose their derivative (without the
//   registration Parad refuses the stores), the derivative of what the function returns is unchanged;
//   Enzyme's inactive global chosen against active memory (`cond ? &tmp : c`, one store after -O2): with
//   cond false the derivative through c is d/da (a * a) = 2 a, with cond true it is 1 (c untouched), and
//   tmp keeps its value times a.
// Reverse and forward mode, against the analytic derivatives (1e-12). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

int enzyme_dup;
int enzyme_const;
int enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double scale(double a) { return 2 * a; }
void *__enzyme_inactivefn[] = {(void *)scale};
__attribute__((enzyme_inactive)) double twice(double a) { return a + a; }

double last;
void *__enzyme_inactive_global = (void *)&last;
double history[4], count_sum;
void *__enzyme_inactive_global_list[] = {(void *)history, (void *)&count_sum};
double trace __attribute__((enzyme_inactive));

static double f(double a) {
  last = a;
  history[1] = a * a;
  count_sum += a;
  trace = sin(a);
  return scale(a) + twice(a) + a * a;
}

static double tmp = 5.5;
void *__enzyme_inactive_global_tmp = (void *)&tmp;

__attribute__((noinline)) static void update(int cond, double a, double *c) {
  if (cond)
    tmp *= a;
  else
    *c *= a;
}

static double through(int cond, double a) {
  double c = a;
  update(cond, a, &c);
  return c;
}

int main(void) {
  double a = 1.7;
  CHECK_CLOSE(__enzyme_autodiff((void *)f, a), 2 * a, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)f, a, 1.0), 2 * a, 1e-12);
  CHECK_CLOSE(last, a, 0);
  CHECK_CLOSE(history[1], a * a, 0);

  CHECK_CLOSE(__enzyme_autodiff((void *)through, enzyme_const, 0, 3.0), 6.0, 1e-12);
  CHECK_CLOSE(__enzyme_autodiff((void *)through, enzyme_const, 1, 3.0), 1.0, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)through, enzyme_const, 0, 3.0, 1.0), 6.0, 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)through, enzyme_const, 1, 3.0, 1.0), 1.0, 1e-12);
  CHECK_CLOSE(tmp, 5.5 * 3 * 3, 1e-12);
  return check_done();
}
