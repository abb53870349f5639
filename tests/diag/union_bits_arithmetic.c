// A global union whose bytes the differentiated code writes as a double and changes as an integer (the
// double's bits incremented): what the bytes hold is not one kind, so the arithmetic stays refused, with
// its line (analysis/union_globals.c takes a union's bytes for integers only where every access of the
// module to them moves integers: tests/rev/common_block_counters.c). No output file.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

union {
  double d;
  long bits;
} u;

static double next_up(double *x) {
  u.d = *x * *x;
  // CHECK: union_bits_arithmetic.c:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}
  u.bits++;
  return u.d;
}

int main(void) {
  double x = 1.5, dx = 0;
  __parad_autodiff((void *)next_up, &x, &dx);
  return dx > 0;
}
