// Custom forward-mode derivatives (__enzyme_register_derivative_NAME = {f, df}), which replace the call
// as in Enzyme:
//   expish(x):       df(x, dx) returns the tangent alone; f's result, which is used, comes from f;
//   powk(x, k):      df(x, dx, k, k) in Enzyme's full form (every argument followed by one, an integer by
//                    itself), returning {result, tangent};
//   square(src, dst): void, pointers, df(src, dsrc, dst, ddst) writes the result and its tangent;
//   g(x) = expish(x) powk(x, 3) + square(x), g' = e^x x^3 + 3 e^x x^2 + 2 x.
// Each rule computes the exact derivative, and counts its calls: it is used once per call of f (per
// direction in vector mode, where g' is checked along two directions). The values the tangents need come
// from the rules: powk's from its {result, tangent}, and in h(x) = y^2, y = square(x) (h' = 4 x^3), y from
// the rule that replaced the call. A request naming expish or square itself uses their rules too.
// Against the analytic derivatives (1e-12). At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

int enzyme_dup;
int enzyme_const;
int enzyme_out;
int enzyme_width;
extern double __enzyme_fwddiff(void *, ...);
typedef struct { double d[2]; } Two;
extern Two __enzyme_fwddiff2(void *, ...);

static int rule_calls;

/* a series the derivative of which would not be e^x exactly: the rule's is */
__attribute__((noinline)) double expish(double x) {
  double s = 1, t = 1;
  for (int i = 1; i < 30; i++) s += (t *= x / i);
  return s;
}
double d_expish(double x, double dx) {
  rule_calls++;
  return exp(x) * dx;
}
void *__enzyme_register_derivative_expish[] = {(void *)expish, (void *)d_expish};

typedef struct { double value, tangent; } Dual;
double powk(double x, int k) { return pow(x, k); }
Dual d_powk(double x, double dx, int k, int k_shadow) {
  (void)k_shadow;
  rule_calls++;
  Dual r = {pow(x, k), k * pow(x, k - 1) * dx};
  return r;
}
void *__enzyme_register_derivative_powk[] = {(void *)powk, (void *)d_powk};

void square(const double *src, double *dst) { *dst = *src * *src; }
void d_square(const double *src, const double *dsrc, double *dst, double *ddst) {
  rule_calls++;
  *dst = *src * *src; /* the rule does f's work too */
  *ddst = 2 * *src * *dsrc;
}
void *__enzyme_register_derivative_square[] = {(void *)square, (void *)d_square};

static double g(double x) {
  double y;
  square(&x, &y);
  return expish(x) * powk(x, 3) + y;
}

static double h(double x) {
  double y;
  square(&x, &y);
  return y * y;
}

int main(void) {
  double x = 0.6, e = exp(x);
  double want = e * x * x * x + 3 * e * x * x + 2 * x;
  CHECK_CLOSE(__enzyme_fwddiff((void *)g, x, 1.0), want, 1e-12);
  CHECK_CLOSE(rule_calls, 3, 0);
  CHECK_CLOSE(__enzyme_fwddiff((void *)g, enzyme_dup, x, -0.5), -0.5 * want, 1e-12);

  rule_calls = 0;
  Two t = __enzyme_fwddiff2((void *)g, enzyme_width, 2, x, 1.0, 2.0);
  CHECK_CLOSE(t.d[0], want, 1e-12);
  CHECK_CLOSE(t.d[1], 2 * want, 1e-12);
  CHECK_CLOSE(rule_calls, 6, 0);

  rule_calls = 0;
  CHECK_CLOSE(__enzyme_fwddiff((void *)h, x, 1.0), 4 * x * x * x, 1e-12);
  CHECK_CLOSE(rule_calls, 1, 0);

  /* a request naming a function with a rule uses the rule, as Enzyme does */
  rule_calls = 0;
  CHECK_CLOSE(__enzyme_fwddiff((void *)expish, x, 1.0), e, 1e-12);
  double src = x, dsrc = 1, dst, ddst = 0;
  __enzyme_fwddiff((void *)square, &src, &dsrc, &dst, &ddst);
  CHECK_CLOSE(ddst, 2 * x, 1e-12);
  CHECK_CLOSE(rule_calls, 2, 0);
  return check_done();
}
