// The activity markers defined in two files of one program (int enzyme_dup; in each, as Enzyme programs
// do, with clang's default -fno-common), compiled separately and together: the program links and the
// derivative is right (d/dx of 3 (x + 0.5)^2 = 6 (x + 0.5), tolerance 1e-12).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc %cflags -c %s -o %t/main.o && %parad-cc %cflags -c %S/Inputs/more_markers.c -o %t/more.o
// RUN: %parad-cc %t/main.o %t/more.o -o %t/prog && %t/prog
// RUN: %parad-cc -O0 -I%S/../include %s %S/Inputs/more_markers.c -o %t/prog0 && %t/prog0
#include "check.h"

int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double shifted(double x);

static double f(double x) { return 3 * (x + 0.5) * (x + 0.5); }

int main(void) {
  for (double x = -1; x < 2; x += 0.5) CHECK_CLOSE(__enzyme_autodiff((void *)f, enzyme_out, x), 6 * shifted(x), 1e-12);
  return check_done();
}
