// Forward mode over a gradient whose request duplicates an array the outer request passes constant
// (`coef` with a shadow for the gradient, enzyme_const for the Hessian-vector product) through a function
// with a registered gradient: refused, since the gradient's own code stores the pointer where forward mode
// wants its tangent. The refusal was found in code Parad wrote (the gradient's), which has no source
// lines: it was printed as "parad: error: ..." with no place. It is reported at the outer request now.
// No output file.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <stdlib.h>
#include <math.h>
int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double flux(double a, const double *coef) { return coef[0] * a + coef[1] * a * a; }
typedef struct {
  double res;
  void *tape;
} Aug;
Aug flux_aug(double a, const double *coef, const double *dcoef) {
  Aug r = {flux(a, coef), malloc(sizeof(double))};
  *(double *)r.tape = a;
  return r;
}
double flux_grad(double a, const double *coef, double *dcoef, double dret, void *tape) {
  a = *(double *)tape;
  free(tape);
  if (dcoef) dcoef[0] += dret * a, dcoef[1] += dret * a * a;
  return dret * (coef[0] + 2 * coef[1] * a);
}
void *__enzyme_register_gradient_flux[3] = {(void *)flux, (void *)flux_aug, (void *)flux_grad};

static double total(const double *u, int n, const double *coef) {
  double e = 0;
  for (int i = 0; i < n; i++) e += flux(u[i] * u[(i + 1) % n], coef);
  return e;
}

static void grad_total(const double *u, double *g, int n, const double *coef) {
  double dc[2] = {0};
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)total, enzyme_dup, u, g, enzyme_const, n, enzyme_dup, coef, dc);
}

int main(void) {
  double u[4] = {0.1, 0.2, 0.3, 0.4}, v[4] = {1, 0, 0, 0}, g[4], hv[4], coef[2] = {0.3, -0.2};
  // CHECK: hvp_constant_in_gradient.c:[[@LINE+1]]:{{[0-9]+}}: error: the pointer stored here into memory with derivatives needs a shadow for memory that has none
  __enzyme_fwddiff((void *)grad_total, enzyme_dup, u, v, enzyme_dupnoneed, g, hv, enzyme_const, 4, enzyme_const, coef);
  return (int)hv[0];
}
