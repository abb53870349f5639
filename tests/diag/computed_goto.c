// A computed goto (GNU C labels as values) inside differentiated code is refused.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

__attribute__((noinline)) static double jumpy(double x, int k) {
  static void *labels[] = {&&one, &&two};
  // CHECK: computed_goto.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a computed goto in function 'jumpy'
  goto *labels[k & 1];
one:
  return x * x;
two:
  return x * 3;
}

int main(int argc, char **argv) { return (int)__parad_fwddiff((void *)jumpy, 1.0, 1.0, argc); }
