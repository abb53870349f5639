// Hessian-vector products (forward mode over a gradient) of functions with constant pointer parameters,
// the usual shape: f(x, w) with w data. At -O1 and up the gradient read w again in its reverse sweep
// through the pointer its tape held, and forward mode over that tape needed a tangent of the pointer,
// which a constant parameter has not: refused ("the pointer stored here into memory with derivatives needs a shadow",
// with no file:line, in a generated function). A gradient computed where forward mode reaches now
// records what it reads instead.
//   f(x, w) = sum_i w_i x_i^3 + (sum_i x_i)^2 + k x_0^2:  (H v)_i = 6 w_i x_i v_i + 2 sum_j v_j + [i = 0] 2 k v_0.
// Against that (1e-12), with w and k constant, at -O2, -O3 and -O0, and through a scalar one as in
// Enzyme's examples (d/dx of the gradient of k x^2: 2k).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_out, enzyme_const, enzyme_dup, enzyme_dupnoneed;

enum { N = 5 };

static double f(const double *x, const double *w, const double *k, int n) {
  double s = 0, t = 0;
  for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i] * x[i], t += x[i];
  return s + t * t + *k * x[0] * x[0];
}

static void grad(const double *x, double *g, const double *w, const double *k, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, w, enzyme_const, k, enzyme_const, n);
}

static double scalar(double x, const double *k) { return *k * x * x; }
static double scalar_grad(double x, const double *k) {
  return __enzyme_autodiff((void *)scalar, enzyme_out, x, enzyme_const, k);
}

int main(void) {
  double x[N], w[N], v[N], g[N], hv[N], k = 0.7;
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.2 * i, w[i] = 1.5 - 0.25 * i, v[i] = (i % 2 ? -1.0 : 1.0) * (1 + 0.1 * i);
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dupnoneed, g, hv, enzyme_const, w, enzyme_const, &k,
                   enzyme_const, N);
  double sv = 0;
  for (int i = 0; i < N; i++) sv += v[i];
  for (int i = 0; i < N; i++) CHECK_CLOSE(hv[i], 6 * w[i] * x[i] * v[i] + 2 * sv + (i == 0) * 2 * k * v[0], 1e-12);
  CHECK_CLOSE(__enzyme_fwddiff((void *)scalar_grad, 0.9, 1.0, enzyme_const, &k), 2 * k, 1e-12);
  return check_done();
}
