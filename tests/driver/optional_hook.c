// An optional hook, as libraries offer them: a weak undefined `extra`, called only where some file
// defines it. ld does not take an archive member for a weak reference, so with the hook only in an
// archive the program runs without it; the link step refused the derivative ("cannot differentiate a
// call to 'extra', which no file ... defines"). The hook is now 0 there, as ld makes it, and with the
// hook's object on the line it is differentiated. Against the analytic derivative (1e-12).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %parad-cc -O2 -c %S/Inputs/link_rules/hook.c -o hook.o && ar rcs libhook.a hook.o
// RUN: %parad-cc -O2 -I%S/../include -c %s -o main.o
// RUN: %parad-cc main.o libhook.a -o without && ./without 0
// RUN: %parad-cc main.o hook.o -o with && ./with 5
#include <stdlib.h>

#include "check.h"

extern double extra(double) __attribute__((weak));
double __parad_autodiff(void *, ...);

static double f(double x) { return x * x + (extra ? extra(x) : 0); }

int main(int argc, char **argv) {
  CHECK_CLOSE(__parad_autodiff((void *)f, 1.5), 3 + atof(argv[1]), 1e-12);
  return check_done();
}
