// The commands that only read the sources (-E, -M, -MM, -fsyntax-only) see what a compile sees: parad.h
// and Enzyme's attribute macros. They went to clang without them ("'parad.h' file not found"), which broke
// `$(CC) -MM` dependency rules, ccache's preprocessor mode and editors' checks. The same file compiled and
// run: its gradient against the analytic one (1e-12).
// RUN: rm -rf %t && mkdir %t && cd %t
// RUN: %parad-cc -I%S/../include -fsyntax-only %s
// RUN: %parad-cc -I%S/../include -M %s | FileCheck %s --check-prefix=DEPS
// RUN: %parad-cc -I%S/../include -MM %s | FileCheck %s --check-prefix=DEPS
// RUN: %parad-cc -I%S/../include -E %s | FileCheck %s --check-prefix=PRE
// RUN: %parad-cc %cflags %s -o prog && ./prog
// DEPS: preprocess_only.o:
// DEPS-SAME: preprocess_only.c
// PRE: double __parad_autodiff(void *fn, ...);
// PRE: __attribute__((annotate("enzyme_inactive"))) double unused_scale
#include <parad.h>
#include "check.h"

__attribute__((enzyme_inactive)) double unused_scale = 2.0;

static double f(double x) { return x * x * x; }

int main(void) {
  CHECK_CLOSE(__parad_autodiff((void *)f, 1.5), 3 * 1.5 * 1.5, 1e-12);
  return check_done();
}
