// A request naming an ifunc written by hand: which body runs is known only when the program starts, and a
// request needs the function at compile time. Refused, naming the ifunc and the way round (name the body;
// calls of the ifunc inside a differentiated function are followed: tests/rev/ifunc_by_hand.c), with no
// output file, at -O2 and -O0. It was refused as "not a function named in this file".
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: not %parad-cc -O0 %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __parad_autodiff(void *, ...);

static double cube_fast(double x) { return x * x * x; }
static double (*pick_cube(void))(double) { return cube_fast; }
double cube(double x) __attribute__((ifunc("pick_cube")));

int main(void) {
  // CHECK: ifunc_request.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff: 'cube' is an ifunc, whose body its resolver picks when the program starts: name the body to differentiate
  return (int)__parad_autodiff((void *)cube, 2.0);
}
