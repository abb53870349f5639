// An archive inside -Wl,--whole-archive whose member goes into the link-time derivative: the linker took
// the member from the archive as well as its code in the program's object ("multiple definition of
// 'squared'"). The archive is linked as a copy without the members merged (ar d). A member nothing calls,
// linked for its constructor, still runs (compiled by parad-cc: merged; by clang: left in the copy).
// The derivative against the analytic one (1e-12).
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %parad-cc -O2 -c %S/Inputs/whole/squared.c -o squared.o
// RUN: %parad-cc -O2 -c %S/Inputs/whole/registry.c -o registry.o
// RUN: %parad-cc -O2 -I%S/../include -c %s -o main.o
// RUN: ar rcs libwhole.a squared.o registry.o
// RUN: %parad-cc main.o -Wl,--whole-archive -L. -lwhole -Wl,--no-whole-archive -o prog && ./prog
// RUN: %clang -O2 -c %S/Inputs/whole/registry.c -o plain_registry.o && ar rcs libmixed.a squared.o plain_registry.o
// RUN: %parad-cc main.o -Wl,--whole-archive libmixed.a -Wl,--no-whole-archive -o prog2 && ./prog2
#include "check.h"

double squared(double x);
double __parad_autodiff(void *, ...);
extern int registered;

int main(void) {
  CHECK_CLOSE(__parad_autodiff((void *)squared, 1.5), 3.0, 1e-12);
  CHECK_CLOSE(registered, 7, 0);
  return check_done();
}
