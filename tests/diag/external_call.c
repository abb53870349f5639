// A function without a body in this file, called with an active argument, is refused: file:line:col,
// the construct, the function; exit status non-zero; no output file.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
double mystery(double);
double __parad_fwddiff(void *, ...);

static double f(double x) {
  double y = x * x;
  // CHECK: external_call.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a call to 'mystery', which no file of the program compiled by parad-cc defines, with an active argument (#1) in forward mode: give it a body, or register a derivative (__parad_register_derivative_mystery, in a file the link takes: a static library's member that nothing calls into is left out), or, if no derivative goes through it (output, logging), declare it inactive (void *__enzyme_inactivefn[] = {(void *)mystery};) in function 'f'
  return mystery(y) + 1;
}

int main(void) { return (int)__parad_fwddiff((void *)f, 1.0, 1.0); }
