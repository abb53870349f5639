// A derivative with respect to a global the function also reads by name is refused where the argument
// is the global's address at compile time (ad/global_arguments.h): file:line:col, the argument, the
// global, the function; exit status non-zero; no output file. Both modes. A pointer the compiler cannot
// see through is checked when the program runs: tests/rev/global_argument.c.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

double W[2] = {1.5, 2.0};

static double f(const double *w) { return w[0] * W[1]; }

int main(void) {
  double dW[2] = {0}, e[2] = {1, 0};
  // CHECK-DAG: global_argument.c:[[@LINE+1]]:3: error: __parad_autodiff: argument #1 of 'f' points into the global variable 'W', which 'f' also reads by name: the derivative would miss what goes through those reads; pass the values in an array of their own, or read them only through the argument
  __parad_autodiff((void *)f, W, dW);
  // CHECK-DAG: global_argument.c:[[@LINE+1]]:10: error: __parad_fwddiff: argument #1 of 'f' points into the global variable 'W'
  return __parad_fwddiff((void *)f, W, e) > 0;
}
