// Active data stored into a global (which has no shadow) would lose its derivative: refused.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __parad_fwddiff(void *, ...);
double cache;

__attribute__((noinline)) static double f(double x) {
  // CHECK: store_to_global.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot store an active value into memory without a shadow (the global variable 'cache'; Parad gives globals no shadow) in function 'f'
  cache = x * 3;
  return cache + x;
}

int main(void) { return (int)__parad_fwddiff((void *)f, 1.0, 1.0); }
