// A program whose derivatives are made at the link, its files compiled with -g: the program's object
// kept no debug info (the link step stripped it), and a debugger lost the lines of every merged file.
// Both files' names in the line tables; the derivative against the analytic one (1e-12). Without -g,
// no line table names them.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %parad-cc -g -O2 -DPOWER=2 -c %S/Inputs/link_rules/power.c -o square.o
// RUN: %parad-cc -g -O2 -I%S/../include -c %s -o main.o
// RUN: %parad-cc main.o square.o -o prog && ./prog
// RUN: llvm-dwarfdump --show-sources prog | FileCheck %s
// CHECK-DAG: link_rules/power.c
// CHECK-DAG: link_debug_info.c
// RUN: %parad-cc -O2 -DPOWER=2 -c %S/Inputs/link_rules/power.c -o plain_square.o
// RUN: %parad-cc -O2 -I%S/../include -c %s -o plain_main.o
// RUN: %parad-cc plain_main.o plain_square.o -o plain && ./plain
// RUN: llvm-dwarfdump --show-sources plain | FileCheck %s --check-prefix=NONE
// NONE-NOT: link_debug_info.c
// NONE-NOT: power.c
#include "check.h"

double g(double x);
double __parad_autodiff(void *, ...);

static double f(double x) { return 3 * g(x); }

int main(void) {
  CHECK_CLOSE(__parad_autodiff((void *)f, 1.5), 3 * 2 * 1.5, 1e-12);
  return check_done();
}
