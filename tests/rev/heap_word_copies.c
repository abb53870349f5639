// Doubles in malloc'd blocks copied by a loop of `long` words that is inlined, which the optimiser makes
// one memcpy carrying the words' `long` type tag (undefined by C's aliasing rule, built as written at
// -O1: at -O2 clang folds this primal itself, reading the destination as never written, so the test
// stops at -O1). The copy's tag said integers and both modes gave zero (the old compiler fails all 15
// checks). It is now taken for a copy of doubles (the blocks' other accesses are doubles), and its tag is
// dropped before differentiating: by it LLVM took the copy for apart from the doubles' loads, and at -O2
// forward mode read the block unwritten (NaN). A block that mixes kinds is refused where words meet it
// (tests/diag/word_copies_mixed_records.c).
// Gradients against tangents along each unit direction (1e-12), central differences (1e-6) and the
// analytic gradient 4 (i + 1) x_i^3 (1e-12), at -O1 and -O0.
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 5 };

static inline void copy_words(long *dst, const long *src, int n) {
  for (int i = 0; i < n; i++) dst[i] = src[i];
}

static double heap_copied(const double *x) {
  double *y = malloc(N * sizeof *y), *z = malloc(N * sizeof *z);
  for (int i = 0; i < N; i++) y[i] = x[i] * x[i];
  copy_words((long *)z, (const long *)y, N);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * z[i] * z[i];
  free(y);
  free(z);
  return s;
}

int main(void) {
  const double x[N] = {0.3, -1.2, 0.7, 2.1, -0.4};
  CHECK_GRADIENT(heap_copied, x, N, 1e-12, 1e-5, 1e-6);
  double g[N] = {0};
  __parad_autodiff((void *)heap_copied, x, g);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], 4 * (i + 1) * x[i] * x[i] * x[i], 1e-12);
  return check_done();
}
