// A program built for source-based coverage or profiles (-fprofile-instr-generate, -fcoverage-mapping):
// the front end puts counter intrinsics in every function, which clang's own pipeline lowers and code
// generation from Parad's IR never did: the back end stopped at them ("Cannot select: intrinsic
// %llvm.instrprof.increment"). The derivative against the analytic one (1e-12); the profile is written
// and llvm-profdata reads it. Built again with the profile (-fprofile-instr-use, -fprofile-use): the
// optimiser's call-graph profile, a module flag, was added by each of Parad's runs of the pipeline, and two
// made the module invalid (clang stopped with "Broken module found"); right now.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %parad-cc -O2 -fprofile-instr-generate -I%S/../include %s -o prog && env LLVM_PROFILE_FILE=%t/o2.profraw ./prog
// RUN: llvm-profdata merge -o o2.profdata o2.profraw
// RUN: %parad-cc -O2 -fprofile-instr-use=o2.profdata -I%S/../include %s -o use && ./use
// RUN: %parad-cc -O0 -fprofile-use=o2.profdata -I%S/../include %s -o use0 && ./use0
// RUN: %parad-cc -O0 -fprofile-instr-generate -fcoverage-mapping -I%S/../include %s -o prog0 && env LLVM_PROFILE_FILE=%t/o0.profraw ./prog0
// RUN: llvm-profdata merge -o o0.profdata o0.profraw && llvm-cov report ./prog0 -instr-profile=o0.profdata | FileCheck %s
// CHECK: profile_instrumentation.c
#include "check.h"

double __parad_autodiff(void *, ...);

static __attribute__((noinline)) double cube(double x) { return x * x * x; }
static double f(double x) { return x > 0 ? cube(x) : -x; }

int main(void) {
  CHECK_CLOSE(__parad_autodiff((void *)f, 2.0), 12.0, 1e-12);
  CHECK_CLOSE(__parad_autodiff((void *)f, -2.0), -1.0, 1e-12);
  return check_done();
}
