// Entry points Parad does not implement are refused by name rather than linked to nothing.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __enzyme_truncate_mem_func(void *, ...);
static double f(double x) { return x * x; }

int main(void) {
  // CHECK: unsupported_entry.c:[[@LINE+1]]:{{[0-9]+}}: error: unknown or unsupported Parad/Enzyme entry point '__enzyme_truncate_mem_func'
  double a = __enzyme_truncate_mem_func((void *)f, 1.0, 1.0);
  return (int)a;
}
