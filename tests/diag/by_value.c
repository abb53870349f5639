// A struct passed by value (in memory) to the differentiated function takes a constant marker in reverse
// mode: its gradient would be added into a copy of the shadow the call makes, which the caller never sees.
// Without one, or duplicated, it is refused at the call, with the fix (tests/rev/struct_by_value_request.c
// differentiates the accepted forms); so is a struct of pointers with a float beside them (a struct of
// pointers alone is accepted: tests/rev/struct_of_pointers_by_value.c).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

typedef struct { double a, b, c; } Big; /* passed in memory (byval) */
typedef struct { double *v; double scale; int n; } Mixed;

static double by_value(Big s, double x) { return s.a * x + s.b; }
static double mixed(Mixed m) { return m.scale * m.v[m.n - 1]; }

int main(void) {
  Big s = {1, 2, 3}, ds = {0, 0, 0};
  // CHECK: by_value.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff: parameter #1 of 'by_value' is a struct passed by value in memory: mark it parad_const (a constant), or pass a pointer to it instead
  double g = __parad_autodiff((void *)by_value, s, 1.0);
  // CHECK: by_value.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff: parameter #1 of 'by_value' is a struct passed by value in memory: mark it parad_const (a constant), or pass a pointer to it instead
  g += __parad_autodiff((void *)by_value, parad_dup, s, ds, 1.0);
  double v[2] = {1, 2}, dv[2] = {0};
  Mixed m = {v, 2, 2}, dm = {dv, 0, 2};
  // CHECK: by_value.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff: parameter #1 of 'mixed' is a struct passed by value in memory: mark it parad_const (a constant), or pass a pointer to it instead
  g += __parad_autodiff((void *)mixed, m, dm);
  return (int)g;
}
