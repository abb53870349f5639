// -MD and -MMD where the program is compiled and linked in one command, as a Makefile's link rule writes
// it: the dependency file is the program's, named after it (prog.d, target prog), as clang writes it; it
// was written beside the intermediate object and lost, and make then missed header changes. The header
// is listed; the program's gradient is checked against the analytic one (1e-12).
// RUN: rm -rf %t && mkdir %t && cd %t
// RUN: %parad-cc -O2 -MMD -I%S/Inputs -I%S/../include %s -o prog && ./prog
// RUN: FileCheck %s --check-prefix=DEP < prog.d
// DEP: prog:
// DEP-SAME: dependency_files.c
// DEP: scale.h
#include "check.h"
#include "scale.h"

double __parad_autodiff(void *, ...);

static double f(double x) { return SCALE_BY * x * x; }

int main(void) {
  CHECK_CLOSE(__parad_autodiff((void *)f, 1.5), 2 * SCALE_BY * 1.5, 1e-12);
  return check_done();
}
