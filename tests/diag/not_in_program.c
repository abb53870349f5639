// The function to differentiate may be defined in another file of the program (the derivative is then
// generated at link time), but not in none: refused when the program is linked, at the request, with no
// output file. So is a call, in differentiated code, to a function no file defines.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc %cflags -c %s -o %t/main.o
// RUN: not %parad-cc %t/main.o -o %t/prog 2>&1 | FileCheck %s
// RUN: test ! -e %t/prog
double __parad_fwddiff(void *, ...);
extern double elsewhere(double);
extern double helper(double);

static double g(double x) {
  // CHECK-DAG: not_in_program.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a call to 'helper', which no file of the program compiled by parad-cc defines, with an active argument (#1) in forward mode: give it a body, or register a derivative (__parad_register_derivative_helper, in a file the link takes: a static library's member that nothing calls into is left out), or, if no derivative goes through it (output, logging), declare it inactive (void *__enzyme_inactivefn[] = {(void *)helper};) in function 'g'
  return helper(x) * x;
}

int main(void) {
  // CHECK-DAG: not_in_program.c:[[@LINE+1]]:{{[0-9]+}}: error: __parad_fwddiff: cannot differentiate 'elsewhere', which no file of the program compiled by parad-cc defines
  double b = __parad_fwddiff((void *)elsewhere, 1.0, 1.0);
  return (int)(b + __parad_fwddiff((void *)g, 2.0, 1.0));
}
