// The function to differentiate must be named at the call: a pointer variable is refused (a function
// whose body is in no file of the program: tests/diag/not_in_program.c).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double __parad_fwddiff(void *, ...);
static double f(double x) { return x * x; }
static double h(double x) { return x; }

int main(int argc, char **argv) {
  void *fp = argc > 1 ? (void *)f : (void *)h;
  // CHECK: not_a_function.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: the first argument must be a function named in this file (not a pointer variable; a helper that passes on a function it is given is inlined where it is static)
  double a = __parad_fwddiff(fp, 1.0, 1.0);
  return (int)a;
}
