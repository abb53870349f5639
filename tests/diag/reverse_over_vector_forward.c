// Reverse mode over vector forward mode (a gradient of a function computing a tangent of width 2) is
// refused at the inner request, saying so: it was "cannot differentiate this pointer computation" in the
// generated tangent function 'fwddiffe2.f...'. No output file. Reverse over one direction still builds.
// RUN: rm -f %t && not %parad-cc -O2 %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 %s -o %t 2>&1 | FileCheck %s
// RUN: %parad-cc -O2 -DONE_DIRECTION %s -o %t1 && %t1
// CHECK: reverse_over_vector_forward.c:[[@LINE+17]]:{{[0-9]+}}: error: __enzyme_autodiff of 'h': reverse mode over vector forward mode (a width) computed here is not supported yet
// CHECK-NOT: fwddiffe2
typedef struct {
  double d[2];
} T2;
extern T2 __enzyme_fwddiff(void *, ...);
extern double __enzyme_fwddiff1(void *, ...) __asm__("__enzyme_fwddiff");
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_width, enzyme_dup;

static double f(const double *x) { return x[0] * x[0] * x[1]; }

static double h(const double *x, const double *u, const double *w) {
#ifdef ONE_DIRECTION
  (void)w;
  return __enzyme_fwddiff1((void *)f, enzyme_dup, x, u);
#else
  T2 t = __enzyme_fwddiff((void *)f, enzyme_width, 2, enzyme_dup, x, u, w);
  return t.d[0] + t.d[1];
#endif
}

int main(void) {
  double x[2] = {1.5, 2}, u[2] = {1, 0}, w[2] = {0, 1}, gx[2] = {0}, gu[2] = {0}, gw[2] = {0};
  __enzyme_autodiff((void *)h, enzyme_dup, x, gx, enzyme_dup, u, gu, enzyme_dup, w, gw);
  /* one direction: h = d f along u = 2 x0 x1 u0 + x0^2 u1; dh/dx0 = 2 x1 u0 + 2 x0 u1 = 4 */
  double want = 2 * x[1] * u[0] + 2 * x[0] * u[1];
  return !(gx[0] > want - 1e-12 && gx[0] < want + 1e-12);
}
