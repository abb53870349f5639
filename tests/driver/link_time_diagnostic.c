// A refusal in code of another file, found when the derivative is generated at link time, names that
// file's line (its front end runs again with line tables: it had no requests and was compiled without
// them), the link fails and leaves no program behind.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc %cflags -c %s -o %t/main.o && %parad-cc %cflags -c %S/Inputs/calls_mystery.c -o %t/callee.o
// RUN: not %parad-cc %t/main.o %t/callee.o -o %t/prog 2>&1 | FileCheck %s
// RUN: test ! -e %t/prog
// CHECK: calls_mystery.c:6:{{[0-9]+}}: error: cannot differentiate a call to 'mystery', which no file of the program compiled by parad-cc defines, with an active argument (#1): give it a body, or register a custom gradient (__parad_register_gradient_mystery, in a file the link takes: a static library's member that nothing calls into is left out), or, if no derivative goes through it (output, logging), declare it inactive (void *__enzyme_inactivefn[] = {(void *)mystery};) in function 'through'
double __parad_autodiff(void *, ...);
double through(double x);
int main(void) { return (int)__parad_autodiff((void *)through, 2.0); }
