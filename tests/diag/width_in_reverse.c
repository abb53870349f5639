// A width (vector mode) asked of reverse mode, as Enzyme's users ask for several rows of a Jacobian in
// one sweep: refused at the call, saying what to do instead. No output file.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
void __enzyme_autodiff(void *, ...);
extern int enzyme_width, enzyme_dup;
static void f(const double *x, double *y) { y[0] = x[0] * x[1], y[1] = x[0] + x[1]; }
int main(void) {
  double x[2] = {1, 2}, dx[4] = {0}, y[2], dy[4] = {1, 0, 0, 1};
  // CHECK: width_in_reverse.c:[[@LINE+1]]:{{[0-9]+}}: error: __enzyme_autodiff: 'enzyme_width' (vector mode) is for forward mode only: for several rows of a Jacobian in reverse mode, make one call per row (each with its own seed)
  __enzyme_autodiff((void *)f, enzyme_width, 2, enzyme_dup, x, dx, enzyme_dup, y, dy);
  return (int)dx[0];
}
