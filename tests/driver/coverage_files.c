// gcov coverage (--coverage) of a program that asks for derivatives, built as projects build it: its
// notes (.gcno) and counts (.gcda) were named after Parad's intermediate files, in its temporary
// directory (removed at exit), and a file with a request was not instrumented at all (clang adds the
// counters in its own pipeline). Now named as clang names them (obj/x.gcno beside obj/x.o; prog-file.gcno
// where compiling and linking at once), for files with requests, without, and made at the link (where the
// merged program's files were counted as one: power.c's counts were unreadable, "Invalid .gcda"). The
// derivative against the analytic one (1e-12); llvm-cov reads the counts.
// RUN: rm -rf %t && mkdir -p %t/obj && cd %t
// RUN: %parad-cc -O2 --coverage -I%S/../include -c %s -o obj/x.o && %parad-cc --coverage obj/x.o -o prog && ./prog
// RUN: test -f obj/x.gcno && test -f obj/x.gcda
// RUN: llvm-cov gcov -o obj/x.o %s | FileCheck %s
// CHECK: Lines executed:100.00%
// RUN: %parad-cc -O0 --coverage -I%S/../include %s -o once && ./once && test -f once-coverage_files.gcda
// RUN: %parad-cc -O1 --coverage -DSPLIT -I%S/../include -c %s -o obj/split.o
// RUN: %parad-cc -O1 --coverage -DPOWER=2 -c %S/Inputs/link_rules/power.c -o obj/square.o
// RUN: %parad-cc --coverage obj/split.o obj/square.o -o split && ./split && test -f obj/split.gcda && test -f obj/square.gcda
// RUN: cd obj && llvm-cov gcov -o square.o %S/Inputs/link_rules/power.c 2>&1 | FileCheck %s --check-prefix=SQUARE
// SQUARE-NOT: Invalid
// SQUARE: Lines executed:100.00%
#include "check.h"

double __parad_autodiff(void *, ...);
#ifdef SPLIT
double g(double x);
#else
static double g(double x) { return x * x; }
#endif

static double f(double x) { return 3 * g(x); }

int main(void) {
  CHECK_CLOSE(__parad_autodiff((void *)f, 1.5), 9, 1e-12);
  return check_done();
}
