// A variadic function of the module called with active arguments is refused: one that returns a float
// made of them, and one given a pointer to active memory (the floats it is given by value could go
// there); one given floats by value only, returning no float, is called as it is (rev/variadic_logging.c).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <stdarg.h>
#include <parad.h>

__attribute__((noinline)) static double sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, double);
  va_end(ap);
  return s;
}

__attribute__((noinline)) static double f(double x) {
  // CHECK: variadic.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a call to the variadic function 'sum' with active arguments in function 'f'
  return sum(2, x, x * x);
}

__attribute__((noinline)) static void add_all(double *acc, int n, ...) {
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) *acc += va_arg(ap, double);
  va_end(ap);
}

__attribute__((noinline)) static double g(double x) {
  double acc = 0;
  // CHECK: variadic.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a call to the variadic function 'add_all' with active arguments in function 'g'
  add_all(&acc, 2, x, x * x);
  return acc;
}

int main(void) { return (int)(__parad_fwddiff((void *)f, 1.0, 1.0) + __parad_fwddiff((void *)g, 1.0, 1.0)); }

// The variadic function itself cannot be the one differentiated either.
// RUN: rm -f %t2 && not %parad-cc %cflags -DDIRECT %s -o %t2 2>&1 | FileCheck --check-prefix=DIRECT %s
// RUN: test ! -e %t2
#ifdef DIRECT
double direct(void) {
  // DIRECT: variadic.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: cannot differentiate the variadic function 'sum'
  return __parad_fwddiff((void *)sum, 2, 1.0, 1.0);
}
#endif
