// A program written with Enzyme's spellings gets its markers named as it wrote them: enzyme_out in
// forward mode, an active pointer marked enzyme_out, a scalar marked enzyme_dup in reverse mode (the
// messages said parad_out and parad_dup). file:line:col, the function; exit status non-zero; no output.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
extern int enzyme_out, enzyme_dup;
static double f(double x, double *p) { return x * *p; }
int main(void) {
  double p = 2, dp = 0, s = 0;
  // CHECK-DAG: enzyme_marker_spelling.c:[[@LINE+1]]:{{[0-9]+}}: error: __enzyme_fwddiff: enzyme_out (an active scalar whose gradient is returned) is a reverse-mode marker; use enzyme_dup for parameter #1
  s += __enzyme_fwddiff((void *)f, enzyme_out, 1.0, &p, &dp);
  // CHECK-DAG: enzyme_marker_spelling.c:[[@LINE+1]]:{{[0-9]+}}: error: __enzyme_autodiff: enzyme_out given for parameter #2 of 'f', a pointer: pass it with enzyme_dup and a shadow buffer that receives its gradient
  s += __enzyme_autodiff((void *)f, 1.0, enzyme_out, &p);
  // CHECK-DAG: enzyme_marker_spelling.c:[[@LINE+1]]:{{[0-9]+}}: error: __enzyme_autodiff: enzyme_dup given for parameter #1 of 'f', a scalar: in reverse mode its gradient is returned (enzyme_out)
  s += __enzyme_autodiff((void *)f, enzyme_dup, 1.0, 1.0, &p, &dp);
  return s > 0;
}
