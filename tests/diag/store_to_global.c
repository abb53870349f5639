// Active data stored into a global that has no shadow (defined in a file Parad does not see) would lose its
// derivative: refused. A global the file defines gets a shadow (tests/rev/global_workspace.c).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __parad_fwddiff(void *, ...);
extern double cache; /* defined in a file Parad does not see */

__attribute__((noinline)) static double f(double x) {
  // CHECK: store_to_global.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot store an active value into memory without a shadow (the global variable 'cache', which has no shadow: Parad gives one to a global of floats and integers that the file defines (not thread-local)) in function 'f'
  cache = x * 3;
  return cache + x;
}

int main(void) { return (int)__parad_fwddiff((void *)f, 1.0, 1.0); }
