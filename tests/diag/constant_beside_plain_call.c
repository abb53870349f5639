// A requested function's parameter passed parad_const, whose pointer the function stores beside active
// data (a parameter record handed to a root finder): the refusal says the request passed it as constant,
// also where the program calls the function plainly with a global there (probe p71's equilibrium rate).
// It named the plain call's global instead ("which 'main' gives the global variable 'Y2', which has no
// shadow: Parad gives one to a global of floats and integers that the file defines"), which Y2 is. (The
// record read only by the solver is supported now, its constant field a view, tests/rev/record_of_views.c:
// here the record's address is also kept in a global, where it cannot be followed.)
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __parad_autodiff(void *, ...);
extern int parad_const;

typedef struct { double beta; const double *y; int n; } Prob;
typedef double (*resid_fn)(double x, void *data);

__attribute__((noinline)) double solve(resid_fn f, void *data, double x0) {
  double x = x0;
  for (int i = 0; i < 20; i++) x -= 0.5 * f(x, data);
  return x;
}

static double resid(double x, void *d) {
  Prob *p = d;
  double e = 0;
  for (int k = 0; k < p->n; k++) e += p->y[k] * x;
  return x * x - p->beta * e;
}

Prob *last_problem;

__attribute__((noinline)) double rate(const double *th, const double *y, int n) {
  // CHECK: constant_beside_plain_call.c:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}parameter 2 of 'rate', passed as constant; pass it with parad_dup and a shadow
  Prob p = {th[0], y, n};
  last_problem = &p;
  return solve(resid, &p, 1.0);
}

static double Y[3] = {0.5, 0.25, 0.125};

int main(void) {
  double th[1] = {0.9}, g[1] = {0};
  double r = rate(th, Y, 3);
  __parad_autodiff((void *)rate, th, g, parad_const, Y, 3);
  return (int)(r + g[0]);
}
