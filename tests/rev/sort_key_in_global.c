// qsort's comparator has no context argument, so C programs hand it the sort key through a file-scope
// pointer: `KEY = key; qsort(order, n, sizeof *order, by_key);`. With the key constant (no shadow) the
// store was refused ("needs a shadow for memory that has none"): the global holds pointers, so it has a
// shadow. The comparator only compares what it reads through the global, at -O2 directly and at -O0
// through its locals: nothing of a derivative goes through it, and the pointer shadows itself.
//   f(x, key) = sum_r (n - r) x[order[r]]^2, order sorting key ascending
// Reverse and forward mode against the formula (1e-12), at -O2 and -O0; the key is a static const array
// (in read-only memory: a write through the pointer would stop the program) holding -0.0, which must keep
// its sign (an addition of a zero adjoint would not).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
extern int parad_const;

enum { N = 6 };
static const double *KEY;

static int by_key(const void *a, const void *b) {
  double x = KEY[*(const int *)a], y = KEY[*(const int *)b];
  return (x > y) - (x < y);
}

double f(const double *x, const double *key, int n) {
  int order[N];
  for (int i = 0; i < n; i++) order[i] = i;
  KEY = key;
  qsort(order, (size_t)n, sizeof *order, by_key);
  double s = 0;
  for (int r = 0; r < n; r++) s += (n - r) * x[order[r]] * x[order[r]];
  return s;
}

static const double key[N] = {0.5, -0.0, 2.5, -1.0, 1.5, 0.25};
static const int rank[N] = {3, 1, 5, 0, 4, 2}; /* where each index lands in ascending order of key */

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.4 * i;
  __parad_autodiff((void *)f, x, dx, parad_const, key, N);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], 2.0 * (N - rank[i]) * x[i], 1e-12);
  for (int i = 0; i < N; i++) {
    double e[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, e, parad_const, key, N), 2.0 * (N - rank[i]) * x[i], 1e-12);
  }
  CHECK_CLOSE(signbit(key[1]) && key[1] == 0, 1, 0);
  return check_done();
}
