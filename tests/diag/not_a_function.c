// The function to differentiate is named at the call, or is a pointer to one (tests/rev/request_through_pointer.c).
// Refused: a null pointer; a pointer when no function whose address the program takes takes the
// arguments given (here, one argument too many for both), with no output file. (A function whose body is
// in no file of the program: tests/diag/not_in_program.c.)
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s --check-prefix=FIT
// RUN: test ! -e %t
// RUN: not %parad-cc %cflags -DNULL_POINTER %s -o %t 2>&1 | FileCheck %s --check-prefix=NULL
// RUN: test ! -e %t
double __parad_fwddiff(void *, ...);
static double f(double x) { return x * x; }
static double h(double x) { return x; }

int main(int argc, char **argv) {
#ifndef NULL_POINTER
  void *fp = argc > 1 ? (void *)f : (void *)h;
  // FIT: not_a_function.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: the first argument is a pointer to a function, and no function whose address the program takes (of its files that Parad compiled) takes these arguments as their markers give them: name the function
  double a = __parad_fwddiff(fp, 1.0, 1.0, 2.0);
#else
  // NULL: not_a_function.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: the first argument must be the function to differentiate, or a pointer to it
  double a = __parad_fwddiff((void *)0, 1.0, 1.0) + f(argc) + h(argc);
#endif
  return (int)a;
}
