// A derivative whose function is a member of a thin archive (ar T: the archive holds the member's path,
// from the archive's directory, not its data), made at link time from the member's IR. The archive was
// read as holding no IR, and the link refused: "cannot differentiate 'cubed', which no file of the
// program compiled by parad-cc defines". A member in a subdirectory too. The derivative against the
// analytic one (1e-12).
// RUN: rm -rf %t && mkdir -p %t/sub && cd %t
// RUN: %parad-cc -O2 -c %S/Inputs/thin/cubed.c -o sub/cubed.o
// RUN: %parad-cc -O2 -I%S/../include -c %s -o main.o
// RUN: ar rcsT libthin.a sub/cubed.o && %parad-cc main.o -L. -lthin -o prog && ./prog
// RUN: cp sub/cubed.o . && ar rcsT libflat.a cubed.o && %parad-cc main.o -L. -lflat -o prog2 && ./prog2
#include "check.h"

double cubed(double x);
double __parad_autodiff(void *, ...);

int main(void) {
  CHECK_CLOSE(__parad_autodiff((void *)cubed, 1.5), 3 * 1.5 * 1.5, 1e-12);
  return check_done();
}
