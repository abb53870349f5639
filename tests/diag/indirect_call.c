// A call through a function pointer with an active argument is refused.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
double __parad_fwddiff(void *, ...);
typedef double (*unary)(double);

__attribute__((noinline)) static double apply(unary g, double x) {
  // CHECK: indirect_call.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate an indirect call (through a function pointer) with an active argument (#1) in function 'apply'
  return g(x) * 2;
}

double sq(double x) { return x * x; }
extern unary pick(int);

int main(int argc, char **argv) { return (int)__parad_fwddiff((void *)apply, parad_const, pick(argc), 1.0, 1.0); }
