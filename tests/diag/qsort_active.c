// qsort of an array with derivatives would move the values without their derivatives: refused in both
// modes, saying why, where an array of indices would do. bsearch in such an array likewise where it is a
// library call (at -O0; at -O2 glibc's inline bsearch is differentiated as any code of the file).
// Enzyme's spellings; file:line:col, exit status non-zero, no output file.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: rm -f %t0 && not %parad-cc -O0 -DSEARCH %s -o %t0 2>&1 | FileCheck %s --check-prefix=SEARCH
// RUN: test ! -e %t0
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;

static int increasing(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *x, int n) {
  // CHECK: qsort_active.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'qsort' of an array with derivatives (argument #1): qsort would move the values without their derivatives; sort an array of indices instead (the comparator may read the values) in function 'median'
  qsort(x, n, sizeof *x, increasing);
  return x[n / 2];
}

static double smallest(double *x, int n) {
  // CHECK: qsort_active.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'qsort' of an array with derivatives (argument #1): qsort would move
  qsort(x, n, sizeof *x, increasing);
  return x[0];
}

#ifdef SEARCH
static double found(const double *x, double key) {
  // SEARCH: qsort_active.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'bsearch' of an array with derivatives (argument #2): the pointer bsearch returns into it would have no shadow, and derivatives read through it would be lost in function 'found'
  const double *hit = bsearch(&key, x, 4, sizeof *x, increasing);
  return hit ? *hit : 0;
}
#endif

int main(void) {
  double x[5] = {3, 1, 2, 5, 4}, dx[5] = {0}, v[5] = {1, 0, 0, 0, 0};
  __enzyme_autodiff((void *)median, x, dx, 5);
  double d = __enzyme_fwddiff((void *)smallest, x, v, 5);
#ifdef SEARCH
  double sorted[4] = {1, 2, 3, 4}, ds[4] = {0};
  __enzyme_autodiff((void *)found, sorted, ds, enzyme_const, 3.0);
#endif
  return (int)(dx[0] + d);
}
