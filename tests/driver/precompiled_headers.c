// Precompiled headers as projects build them: the header (which includes parad.h) compiled on its own
// with -x c-header or by its name, then used with -include-pch. The header's compile did not find
// parad.h, a header named alone was taken for an object to link, and -include-pch's value was read as an
// input. The derivative against the analytic one (1e-12).
// RUN: rm -rf %t && mkdir -p %t && cd %t && cp %S/Inputs/pch/common.h .
// RUN: %parad-cc -O2 -x c-header common.h -o common.h.pch
// RUN: %parad-cc -O2 -I%S/../include -include-pch common.h.pch %s -o prog -lm && ./prog
// RUN: %parad-cc -O2 common.h -o named.pch
// RUN: %parad-cc -O2 -I%S/../include -include-pch named.pch -c %s -o main.o && %parad-cc main.o -o prog2 -lm && ./prog2
#include "check.h"

static double f(double x) { return sq(sin(x)); }

int main(void) {
  CHECK_CLOSE(__parad_autodiff((void *)f, 0.7), 2 * sin(0.7) * cos(0.7), 1e-12);
  return check_done();
}
