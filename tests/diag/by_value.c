// A struct passed by value (in memory) to the differentiated function takes a constant marker in reverse
// mode: its gradient would be added into a copy of the shadow the call makes, which the caller never sees.
// Without one, or duplicated, it is refused at the call, with the fix (tests/rev/struct_by_value_request.c
// differentiates the accepted forms).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

typedef struct { double a, b, c; } Big; /* passed in memory (byval) */

static double by_value(Big s, double x) { return s.a * x + s.b; }

int main(void) {
  Big s = {1, 2, 3}, ds = {0, 0, 0};
  // CHECK: by_value.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff: parameter #1 of 'by_value' is a struct passed by value in memory: mark it parad_const (a constant), or pass a pointer to it instead
  double g = __parad_autodiff((void *)by_value, s, 1.0);
  // CHECK: by_value.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff: parameter #1 of 'by_value' is a struct passed by value in memory: mark it parad_const (a constant), or pass a pointer to it instead
  g += __parad_autodiff((void *)by_value, parad_dup, s, ds, 1.0);
  return (int)g;
}
