// Forward mode over a gradient whose function has an OpenMP parallel region (a Hessian-vector product
// through the region) is refused, naming the region: the message said "a call of Parad's runtime", the
// first call the region's derivative makes. No output file.
// RUN: rm -f %t && not %parad-cc -O2 -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// CHECK: hvp_region.c:[[@LINE+13]]:{{[0-9]+}}: error: __parad_fwddiff of 'grad': forward mode over a reverse-mode derivative computed here cannot differentiate an OpenMP parallel region in it yet
extern double __parad_autodiff(void *, ...);
extern double __parad_fwddiff(void *, ...);
extern int parad_dup;

static double f(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i];
  return s;
}
static void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __parad_autodiff((void *)f, x, g, n);
}
int main(void) {
  double x[4] = {1, 2, 3, 4}, v[4] = {1, 0, 0, 0}, g[4], hv[4];
  __parad_fwddiff((void *)grad, x, v, g, hv, 4);
  return hv[0] != 6;
}
