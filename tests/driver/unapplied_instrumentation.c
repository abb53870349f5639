// Instrumentation that clang adds in its own pipeline and Parad's does not (MemorySanitizer, sanitizer
// coverage, IR-level profiles) was silently left out of a file whose derivatives Parad made: said now, and
// the file still builds. A file without requests gets clang's own pipeline, and no warning.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %parad-cc -O2 -fprofile-generate -c %s -o a.o 2>&1 | FileCheck %s --check-prefix=PGO
// RUN: %parad-cc -O2 -fsanitize-coverage=trace-pc-guard -c %s -o b.o 2>&1 | FileCheck %s --check-prefix=COV
// RUN: %parad-cc -O2 -fprofile-generate -DNO_REQUEST -c %s -o c.o 2>&1 | count 0
// PGO: parad-cc: warning: -fprofile-generate is not applied to {{.*}}unapplied_instrumentation.c, whose derivatives Parad made (not supported yet)
// COV: parad-cc: warning: -fsanitize-coverage=trace-pc-guard is not applied to {{.*}}unapplied_instrumentation.c, whose derivatives Parad made
double __parad_autodiff(void *, ...);

static double f(double x) { return x * x; }

double g(double x) {
#ifdef NO_REQUEST
  return f(x);
#else
  return __parad_autodiff((void *)f, x);
#endif
}
