// A struct passed by value to the differentiated function is refused at the call, with the fix.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

typedef struct { double a, b, c; } Big; /* passed in memory (byval) */

static double by_value(Big s, double x) { return s.a * x + s.b; }

int main(void) {
  Big s = {1, 2, 3}, ds = {0, 0, 0};
  // CHECK: by_value.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: parameter #1 of 'by_value' is a struct passed by value; pass a pointer to it instead
  return (int)__parad_fwddiff((void *)by_value, s, ds, 1.0, 1.0);
}
