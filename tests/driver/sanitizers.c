// -fsanitize=address and -fsanitize=thread in a file that asks for a derivative: clang runs the
// sanitizers' passes last in its own pipeline, and code generation from Parad's IR ran none, so the file
// was not instrumented at all (a heap overflow went unreported). Made at the link too (the request reaches
// another file), where AddressSanitizer's registration of the note for plain linkers then referred to a
// section ld discards and the program did not link. The derivative against the analytic one (1e-12); the
// overflow reported, at -O0 and -O2, compiled at once and at the link; an overflow in code that runs only
// inside the derivative reported too (derivatives were left uninstrumented). The sanitizers' options are set
// for each run: scripts/run-tests sends their reports to files (both ASan's and UBSan's options name one),
// to count those of a sanitized Parad.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %parad-cc -O2 -g -fsanitize=address -I%S/../include %s -o prog && env ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS= ./prog 0
// RUN: not env ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS= ./prog 1 2>&1 | FileCheck %s
// RUN: env ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS= ./prog 0 0 && not env ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS= ./prog 0 1 2>&1 | FileCheck %s --check-prefix=DERIVATIVE
// DERIVATIVE: ERROR: AddressSanitizer: heap-buffer-overflow
// DERIVATIVE: READ of size 8
// RUN: %parad-cc -O0 -fsanitize=address -I%S/../include %s -o prog0 && env ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS= ./prog0 0 && not env ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS= ./prog0 1 2>&1 | FileCheck %s
// RUN: %parad-cc -O1 -fsanitize=address -DSPLIT -I%S/../include -c %s -o main.o
// RUN: %parad-cc -O1 -fsanitize=address -DPOWER=2 -c %S/Inputs/link_rules/power.c -o square.o
// RUN: %parad-cc -fsanitize=address main.o square.o -o split && env ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS= ./split 0 && not env ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS= ./split 1 2>&1 | FileCheck %s
// RUN: %parad-cc -O2 -fsanitize=thread -I%S/../include %s -o tsan && ./tsan 0
// A checkpointed loop under AddressSanitizer: its detection of use after return put the steps' locals in
// frames off the stack, which the loop's snapshots then copied as the program's memory (reported there).
// RUN: %parad-cc -O2 -fsanitize=address -fopenmp -I%S/../include %S/../omp/checkpoint_constant_regions.c -o ckpt -lm
// RUN: env OMP_NUM_THREADS=2 ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS= ./ckpt
// RUN: %parad-cc -O2 -fsanitize=thread -S -emit-llvm -I%S/../include %s -o - | FileCheck %s --check-prefix=TSAN
// CHECK: ERROR: AddressSanitizer: heap-buffer-overflow
// TSAN: call void @__tsan_func_entry
#include <stdlib.h>

#include "check.h"

double __parad_autodiff(void *, ...);
#ifdef SPLIT
double g(double x);
#else
static double g(double x) { return x * x; }
#endif

static double f(double x) { return 3 * g(x); }

__attribute__((noinline)) static int overflow(int past) {
  int *volatile p = malloc(4 * sizeof *p); /* so that the optimiser keeps the store past its end */
  p[3 + past] = 1;
  int r = p[3];
  free(p);
  return r;
}

/* reads x[3] of a 3-element array where past is 1: run only through the derivative */
static double past_end(const double *x, int past) { return x[2 + past] * x[0]; }

int main(int argc, char **argv) {
  CHECK_CLOSE(__parad_autodiff((void *)f, 1.5), 9, 1e-12);
  double *x = malloc(3 * sizeof *x), *dx = calloc(4, sizeof *dx);
  x[0] = 1, x[1] = 2, x[2] = 3;
  if (argc > 2) __parad_autodiff((void *)past_end, x, dx, atoi(argv[2]));
  free(x), free(dx);
  overflow(atoi(argv[1]));
  return check_done();
}
