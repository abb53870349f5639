// An Enzyme marker Parad does not implement is refused at the call, naming it.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dupv;
static double f(double x) { return x * x; }
int main(void) {
  // CHECK: unknown_marker.c:[[@LINE+1]]:{{[0-9]+}}: error: __enzyme_fwddiff: unsupported marker 'enzyme_dupv'
  return (int)__enzyme_fwddiff((void *)f, enzyme_dupv, 1.0, 1.0);
}
