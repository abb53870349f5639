// An Enzyme program, unchanged, in reverse mode: it defines its own marker globals (int enzyme_dup; ...),
// declares __enzyme_autodiff with typed prototypes (a double result for one enzyme_out argument, a struct
// for two, void for none), and uses enzyme_dup, enzyme_dupnoneed, enzyme_const and enzyme_out. Analytic
// gradients (tolerance 1e-12, rounding only) and __enzyme_fwddiff tangents along every unit direction
// (tolerance 1e-12). No Parad header is included.
// RUN: %parad-cc -O2 %s -o %t && %t
// RUN: %parad-cc -O0 %s -o %t0 && %t0
#include <math.h>
#include <stdio.h>

int enzyme_dup, enzyme_const, enzyme_dupnoneed, enzyme_out;
typedef struct { double d1, d2; } Grad2;
extern double __enzyme_autodiff(void *, ...);
extern Grad2 __enzyme_autodiff_2(void *, ...);
extern void __enzyme_autodiff_void(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_fwddiff_void(void *, ...);

static double square_sum(double *x, double scale, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return scale * s;
}

static double rosenbrock(double a, double b) { return (1 - a) * (1 - a) + 100 * (b - a * a) * (b - a * a); }

static void normalize(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  s = sqrt(s);
  for (int i = 0; i < n; i++) y[i] = x[i] / s;
}

static int failures;
static void check(const char *what, double got, double want) {
  double scale = fabs(want) > 1 ? fabs(want) : 1;
  if (!(fabs(got - want) <= 1e-12 * scale)) {
    printf("FAIL %s: got %.17g, want %.17g\n", what, got, want);
    failures++;
  }
}

int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0, 0, 0}, e[3];
  double dscale = __enzyme_autodiff((void *)square_sum, enzyme_dup, x, dx, enzyme_out, 2.0, enzyme_const, 3);
  check("dscale", dscale, 14.0);
  for (int k = 0; k < 3; k++) {
    check("dx", dx[k], 4.0 * x[k]);
    for (int i = 0; i < 3; i++) e[i] = i == k;
    check("dx vs fwd", dx[k], __enzyme_fwddiff((void *)square_sum, enzyme_dup, x, e, enzyme_const, 2.0, enzyme_const, 3));
  }
  check("dscale vs fwd", dscale, __enzyme_fwddiff((void *)square_sum, enzyme_const, x, enzyme_dup, 2.0, 1.0, enzyme_const, 3));

  double a = 0.4, b = 1.3;
  Grad2 g = __enzyme_autodiff_2((void *)rosenbrock, enzyme_out, a, enzyme_out, b);
  check("da", g.d1, -2 * (1 - a) - 400 * a * (b - a * a));
  check("db", g.d2, 200 * (b - a * a));
  check("da vs fwd", g.d1, __enzyme_fwddiff((void *)rosenbrock, enzyme_dup, a, 1.0, enzyme_dup, b, 0.0));
  check("db vs fwd", g.d2, __enzyme_fwddiff((void *)rosenbrock, enzyme_dup, a, 0.0, enzyme_dup, b, 1.0));
  check("da const b", __enzyme_autodiff((void *)rosenbrock, enzyme_out, a, enzyme_const, b), g.d1);

  /* an output array whose primal value is not needed: row r of the Jacobian of x / |x| */
  double n2 = 14, nrm = sqrt(n2);
  for (int r = 0; r < 3; r++) {
    double y[3], dy[3] = {0, 0, 0}, gx[3] = {0, 0, 0};
    dy[r] = 1;
    __enzyme_autodiff_void((void *)normalize, enzyme_dup, x, gx, enzyme_dupnoneed, y, dy, enzyme_const, 3);
    for (int k = 0; k < 3; k++) {
      check("jacobian", gx[k], ((r == k) - x[r] * x[k] / n2) / nrm);
      double y2[3], ty[3];
      for (int i = 0; i < 3; i++) e[i] = i == k;
      __enzyme_fwddiff_void((void *)normalize, enzyme_dup, x, e, enzyme_dupnoneed, y2, ty, enzyme_const, 3);
      check("jacobian vs fwd", gx[k], ty[r]);
    }
  }
  printf("%s\n", failures ? "FAIL" : "ok");
  return failures != 0;
}
