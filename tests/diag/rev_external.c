// Reverse mode: a call to a function whose body is not in the file, with an active argument and no
// registered gradient, is refused with the way out.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
double mystery(double);
double __parad_autodiff(void *, ...);

static double f(double x) {
  // CHECK: rev_external.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a call to 'mystery', which no file of the program compiled by parad-cc defines, with an active argument (#1): give it a body, or register a custom gradient (__parad_register_gradient_mystery, in a file the link takes: a static library's member that nothing calls into is left out), or, if no derivative goes through it (output, logging), declare it inactive (void *__enzyme_inactivefn[] = {(void *)mystery};) in function 'f'
  return mystery(x * x) + 1;
}

int main(void) { return (int)__parad_autodiff((void *)f, 1.0); }
