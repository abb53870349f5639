// qsort of an array with derivatives is differentiated (tests/rev/qsort.c), but in reverse mode not of
// elements holding pointers (rows sorted by their first value): the forward sweep leaves the floats'
// adjoints in place, and would have to move the pointers' shadows with them. Refused, saying why.
// Enzyme's spellings; file:line:col, exit status non-zero, no output file. (bsearch in an array with
// derivatives, refused here at -O0 until 2026-12-02, is differentiated now: tests/rev/bsearch.c.)
// RUN: rm -f %t1 && not %parad-cc %cflags -DPOINTERS %s -o %t1 2>&1 | FileCheck %s --check-prefix=POINTERS
// RUN: test ! -e %t1
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;

#ifdef POINTERS
static int by_first(const void *a, const void *b) {
  double x = **(double *const *)a, y = **(double *const *)b;
  return (x > y) - (x < y);
}

static double first_row_sum(double *x) {
  double *rows[3] = {x, x + 1, x + 3};
  // POINTERS: qsort_active.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate 'qsort' of elements that may hold pointers (pointer data): the shadows of pointers would have to move with them in the forward sweep, where the floats' adjoints stay; sort an array of floats, or of indices in function 'first_row_sum'
  qsort(rows, 3, sizeof *rows, by_first);
  return rows[0][0] + rows[0][1];
}
#endif


int main(void) {
  double x[5] = {3, 1, 2, 5, 4};
#ifdef POINTERS
  double dx[5] = {0};
  __enzyme_autodiff((void *)first_row_sum, x, dx);
#endif
  return (int)x[0];
}
