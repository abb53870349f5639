// A memcpy of _Float16 data in reverse mode: its adjoints would be added as half floats, which the
// runtime does not do; refused with what to do instead (it was called a copy of "mixed data"). Copies of
// long double data are differentiated (tests/rev/long_double_copies.c). No output file.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <string.h>

double __parad_autodiff(void *, ...);

static double f(const double *x, int n) {
  _Float16 a[4], b[4];
  for (int i = 0; i < n; i++) a[i] = (_Float16)(x[i] * x[i]);
  // CHECK: half_copies.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate a copy of _Float16 or __bf16 data: copy the elements one by one in function 'f'
  memcpy(b, a, n * sizeof(_Float16));
  float s = 0;
  for (int i = 0; i < n; i++) s += b[i] * (i + 1);
  return s;
}

int main(void) {
  double x[3] = {0.3, -0.7, 1.1}, g[3] = {0};
  __parad_autodiff((void *)f, x, g, 3);
  return 0;
}
