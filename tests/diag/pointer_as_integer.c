// An address kept as an integer: a function reading a double through a pointer rebuilt from an integer
// field (inttoptr) cannot tell whether it reads active memory: refused at the load, at -O2 and -O0,
// rather than giving a derivative of zero.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s && test ! -e %t
// RUN: rm -f %t0 && not %parad-cc -O0 %s -o %t0 2>&1 | FileCheck %s && test ! -e %t0
#include <stdint.h>
double __parad_autodiff(void *, ...);

typedef struct {
  uintptr_t where;
  double scale;
} Box;

__attribute__((noinline)) static double get(const Box *b) {
  // CHECK: pointer_as_integer.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a load through a pointer rebuilt from an integer (inttoptr): whether it reads active memory cannot be told in function 'get'
  return *(double *)(b->where + 8) * b->scale;
}

static double f(double *x) {
  Box b = {(uintptr_t)x, 3};
  return get(&b);
}

int main(void) {
  double x[2] = {1, 2}, dx[2] = {0};
  __parad_autodiff((void *)f, x, dx);
  return dx[1] != 3;
}
