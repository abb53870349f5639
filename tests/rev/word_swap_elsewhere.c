// A swap of 8-byte words in a file of its own compiled with -fno-strict-aliasing, called by this file
// (compiled without it) on records of doubles: the derivative is made at link time, where the other
// file's flag must still hold for its functions (tests/rev/word_copies_loose_aliasing.c has the same file's
// cases). The words were taken for integers: a gradient of zero with no message.
// Gradients against the analytic ones (1e-12) and tangents (1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags -fno-strict-aliasing -c %S/Inputs/word_swap.c -o %t.swap.o
// RUN: %parad-cc %cflags -c %s -o %t.o && %parad-cc %cflags %t.o %t.swap.o -o %t -lm && %t
// RUN: %parad-cc -O0 -fno-strict-aliasing -c %S/Inputs/word_swap.c -o %t.swap0.o
// RUN: %parad-cc -O0 -I%S/../include -c %s -o %t0.o && %parad-cc -O0 %t0.o %t.swap0.o -o %t0 -lm && %t0
#include <stddef.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void swap_words(void *pa, void *pb, size_t bytes);

typedef struct {
  double value, weight;
} Pair;

static double swapped_records(const double *x) {
  Pair a = {x[0] * x[1], 2}, b = {x[2], x[3]};
  swap_words(&a, &b, sizeof(Pair));
  return a.value * a.weight + b.value * b.value * b.weight;
}

int main(void) {
  const double x[4] = {1.3, -0.4, 0.6, 0.9};
  double g[4] = {0};
  __parad_autodiff((void *)swapped_records, x, g); /* x2 * x3 + (x0 x1)^2 * 2 */
  CHECK_CLOSE(g[0], 4 * x[0] * x[1] * x[1], 1e-12);
  CHECK_CLOSE(g[1], 4 * x[0] * x[0] * x[1], 1e-12);
  CHECK_CLOSE(g[2], x[3], 1e-12);
  CHECK_CLOSE(g[3], x[2], 1e-12);
  for (int j = 0; j < 4; j++) {
    double v[4] = {0};
    v[j] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)swapped_records, x, v), g[j], 1e-12);
  }
  return check_done();
}
