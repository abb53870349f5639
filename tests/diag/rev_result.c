// Reverse-mode results that cannot be delivered: a declared result type that cannot hold the gradients
// (three doubles for two; two doubles for a float function's two floats: the message names the fields'
// types), and a struct result, which has no single seed.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __parad_autodiff(void *, ...);
typedef struct { double a, b, c; } Three;
Three __parad_autodiff3(void *, ...);
typedef struct { double re, im; } Complex;
typedef struct { double a, b; } Two;
Two __parad_autodiff2(void *, ...);
static double g(double x, double y) { return x * y; }
static float gf(float x, float y) { return x * x * y; }
static Complex h(double x) { Complex c = {x, x * x}; return c; }

int main(void) {
  // CHECK-DAG: rev_result.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff3: the call's result type cannot hold the gradients of the active scalar arguments of 'g': declare it as returning a struct of one field per active scalar argument (parad_out, or passed by value), in order: {double, double}
  Three t = __parad_autodiff3((void *)g, 1.0, 2.0);
  // CHECK-DAG: rev_result.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff2: the call's result type cannot hold the gradients of the active scalar arguments of 'gf': declare it as returning a struct of one field per active scalar argument (parad_out, or passed by value), in order: {float, float}
  Two u = __parad_autodiff2((void *)gf, 3.0f, 2.0f);
  // CHECK-DAG: rev_result.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_autodiff: 'h' returns a struct, which has no single seed: use split mode (__parad_augmentfwd, then __parad_reverse with the adjoint of the result)
  double s = __parad_autodiff((void *)h, 1.0);
  return (int)(s + t.a + u.a);
}
