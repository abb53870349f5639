// Reverse mode does not take adjoints through floats returned as integer bits (a struct {int; float;}
// returned by value, as one i64 at -O2): refused, not dropped. Forward mode handles it
// (tests/fwd/struct_packed_return.c).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __parad_autodiff(void *, ...);

typedef struct { int n; float v; } Pair;

__attribute__((noinline)) static Pair make(float x) {
  Pair p = {3, x * x};
  return p;
}

static double f(float x) {
  // CHECK: rev_packed_return.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate floats moved as integer bits into or out of a call, a return, a struct value or a vector in function 'f'
  Pair p = make(x);
  return p.v * p.n;
}

int main(void) { return (int)__parad_autodiff((void *)f, 1.5f); }
