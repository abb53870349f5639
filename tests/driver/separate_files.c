// parad-cc as cc: separate compilation (-c) and linking, -D and -I reaching the front end, several
// sources in one command, a static library, a dependency file (-MD), and -S / -emit-llvm outputs.
// The derivative is checked against the analytic one (tolerance 1e-12).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc -O2 -DSCALE=3 -I%S/Inputs -I%S/../include -c %s -o %t/main.o -MD
// RUN: grep -q 'helpers.h' %t/main.d
// RUN: %parad-cc -O2 -DSCALE=3 -c %S/Inputs/helpers.c -o %t/helpers.o
// RUN: %parad-cc %t/main.o %t/helpers.o -o %t/prog && %t/prog
// RUN: ar rcs %t/libhelpers.a %t/helpers.o && %parad-cc %t/main.o -L%t -lhelpers -o %t/prog2 && %t/prog2
// RUN: %parad-cc -O1 -DSCALE=3 -I%S/Inputs -I%S/../include %s %S/Inputs/helpers.c -o %t/prog3 && %t/prog3
// RUN: %parad-cc -O2 -DSCALE=3 -I%S/Inputs -I%S/../include -S %s -o %t/main.s && grep -q 'main:' %t/main.s
// RUN: %parad-cc -O2 -DSCALE=3 -I%S/Inputs -I%S/../include -S -emit-llvm %s -o %t/main.ll && grep -q 'define' %t/main.ll && not grep -q 'call.*@__parad_fwddiff' %t/main.ll
// RUN: cd %t && %parad-cc -O2 -DSCALE=3 -I%S/Inputs -I%S/../include -c %s && test -f separate_files.o
#include "check.h"
#include "helpers.h"

double __parad_fwddiff(void *, ...);

static double model(const double *w, double x) { return SCALE * w[0] * x * x + w[1] * x; }

int main(void) {
  double w[2], dw[2] = {1, 0};
  fill(w, 2, 0.5, 0.25);
  double x = logistic(0.3);
  CHECK_CLOSE(__parad_fwddiff((void *)model, w, dw, x, 0.0), SCALE * x * x, 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)model, w, dw, x, 1.0), SCALE * x * x + 2 * SCALE * w[0] * x + w[1], 1e-12);
  return check_done();
}
