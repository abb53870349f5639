// A derivative with respect to memory the function also reads by name (ad/global_arguments.h): f reads
// its parameter w and the global W by name. Given W's own address through a pointer the compiler cannot
// see through, the program stops before the derivative runs, naming the argument, the global and the
// function (it gave {2, 0} where {2, 1.5} was right, in both modes, with no message). Given a copy of W's
// values, the gradient is the copy's (W read by name is a constant), against central differences
// (h 1e-6, 1e-8) and the tangents (1e-12), at -O2 and -O0. The address known at compile time is
// tests/diag/global_argument.c. A function that reads W only in a function it calls through a table of
// function pointers stops the same way (it was not compared, and gave the wrong gradient).
// RUN: %parad-cc %cflags %s -o %t && %t copy
// RUN: not --crash %t global 2>&1 | FileCheck %s
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0 copy
// RUN: not --crash %t0 global 2>&1 | FileCheck %s
// RUN: %t copy table && %t0 copy table
// RUN: not --crash %t global table 2>&1 | FileCheck %s --check-prefix=TABLE
// RUN: not --crash %t0 global table 2>&1 | FileCheck %s --check-prefix=TABLE
// CHECK: parad: __parad_autodiff: argument #1 of 'f' points into the global variable 'W', which 'f' also reads by name
// TABLE: parad: __parad_autodiff: argument #1 of 'by_table' points into the global variable 'W', which 'by_table' also reads by name
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

double W[2] = {1.5, 2.0};

__attribute__((noinline)) static double f(const double *w) { return w[0] * W[1] + w[1] * w[1]; }

typedef double (*Term)(const double *);
static double linear(const double *w) { return w[0] * W[1]; }
static double square(const double *w) { return w[1] * w[1]; }
static Term terms[2] = {linear, square};
__attribute__((noinline)) static double by_table(const double *w) {
  double s = 0;
  for (int k = 0; k < 2; k++) s += terms[k](w);
  return s;
}

__attribute__((noinline)) static double *chosen(double *copy, int global) { return global ? W : copy; }

int main(int argc, char **argv) {
  int table = argc > 2 && !strcmp(argv[2], "table");
  double (*fn)(const double *) = table ? by_table : f;
  double copy[2] = {1.5, 2.0}, *w = chosen(copy, argc > 1 && !strcmp(argv[1], "global")), dw[2] = {0};
  if (table) __parad_autodiff((void *)by_table, w, dw);
  else __parad_autodiff((void *)f, w, dw);
  for (int k = 0; k < 2; k++) {
    double e[2] = {0, 0}, h = 1e-6, s = w[k];
    e[k] = 1;
    w[k] = s + h;
    double fp = fn(w);
    w[k] = s - h;
    double fm = fn(w);
    w[k] = s;
    CHECK_CLOSE(dw[k], (fp - fm) / (2 * h), 1e-8);
    CHECK_CLOSE(dw[k], table ? __parad_fwddiff((void *)by_table, w, e) : __parad_fwddiff((void *)f, w, e), 1e-12);
  }
  return check_done();
}
