// A computed goto (GNU C labels as values) inside differentiated code is refused, at -O2 and -O0. At -O0
// the derivative was made from an optimised copy whose jumps went to the original's blocks (the table of
// addresses is the original's): the optimiser took it for unreachable code, and the program crashed. -O0's
// one dispatch block has no line: the refusal is placed at the goto that jumps into it.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: not %parad-cc -O0 -I%S/../include %s -o %t 2>&1 | FileCheck %s
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
