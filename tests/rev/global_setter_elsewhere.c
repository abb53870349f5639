// A pointer global of another file, set by a setter there (`bind(x, n)`: `U = u`) and read by a helper
// there, as modules keep their state:
//   bound_value:  the differentiated function binds its own argument, then reads through the helper;
//   main first binds its own array with a plain call (the global left holding it), then asks for the
//   gradient and the tangent of bound_value, then of read_value, which reads through the global without
//   binding: the global then holds the argument, which the derivative would read without its shadow.
// At -O2 the setter's store of its parameter (code a plain call also runs) made the global one whose
// blocks Parad could not see: bound_value was refused, and read_value, in a program without it, gave the
// gradient of x[0] alone (1 0 0 0) with no message. Such a global now qualifies (the runtime checks what
// it holds at a derivative's entry), and main's array, whose address main's inlined call stores into the
// global, is checked like any pointer (a local was taken to be no global's). bound_value is differentiated
// (gradients against the analytic ones, 1e-12, and tangents), and read_value stops before the
// derivative, naming the argument, the global and the function, at -O2 and -O0.
// RUN: %parad-cc %cflags %s %S/Inputs/setter.c -o %t && %t && not --crash %t read 2>&1 | FileCheck %s
// RUN: %parad-cc -O0 -I%S/../include %s %S/Inputs/setter.c -o %t0 && %t0 && not --crash %t0 read 2>&1 | FileCheck %s
// CHECK: parad: __parad_autodiff: argument #1 of 'read_value' points into the block held by the pointer global 'U', which 'read_value' also reads through the global
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void bind(const double *u, int n);
double energy(void);

enum { N = 4 };

static double bound_value(const double *x) {
  bind(x, N);
  return energy() + x[0];
}

static double read_value(const double *x) { return energy() + x[0]; }

int main(int argc, char **argv) {
  double x[N] = {1, 2, 3, 4};
  CHECK_CLOSE(bound_value(x), 101, 0); /* a plain call: U left at main's x */
  double g[N] = {0};
  __parad_autodiff((void *)bound_value, x, g);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], 2 * x[i] * (i + 1) + (i == 0), 1e-12);
  for (int j = 0; j < N; j++) {
    double v[N] = {0};
    v[j] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)bound_value, x, v), g[j], 1e-12);
  }
  if (argc > 1 && !strcmp(argv[1], "read")) {
    double r[N] = {0};
    __parad_autodiff((void *)read_value, x, r); /* U holds x: stops here */
    printf("read_value's gradient %g %g %g %g\n", r[0], r[1], r[2], r[3]);
    return 0;
  }
  return check_done();
}
