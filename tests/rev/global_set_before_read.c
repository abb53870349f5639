// A pointer global the differentiated code sets before it reads it: qsort's comparator gets its keys
// through a file-scope pointer (qsort takes no context), `keys = x; qsort(idx, n, ..., by_key)`. After a
// plain call (or a first derivative) left the global holding a local array of main's, the next derivative
// stopped: a derivative's entry asked for a shadow of whatever block the global held, and checked that no
// argument pointed into it, though nothing reads the old value. Now neither is done where every path
// stores into the global first (nor for a derivative whose code never touches it).
//   top2(x) = (largest x) * (second largest x): d/dx_i = the other one at the two places, 0 elsewhere.
// Gradients and tangents against that (1e-12), after a plain call, twice each, and of a function that
// does not touch the global while it holds main's array. A function that reads the global before setting it
// still stops the program (the derivative would miss what goes through the old value).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
// RUN: not --crash %t reads_first 2>&1 | FileCheck %s
// RUN: not --crash %t0 reads_first 2>&1 | FileCheck %s
// CHECK: parad{{.*}}'keys'
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
extern int parad_const;

enum { N = 6 };
static const double *keys;

static int by_key(const void *a, const void *b) {
  double x = keys[*(const int *)a], y = keys[*(const int *)b];
  return (x > y) - (x < y);
}

__attribute__((noinline)) static void fill(int *idx, int n) {
  for (int i = 0; i < n; i++) idx[i] = i;
}

static double top2(const double *x, int n) {
  int idx[N];
  fill(idx, n);
  keys = x;
  qsort(idx, n, sizeof(int), by_key);
  return x[idx[n - 1]] * x[idx[n - 2]];
}

static double sum_squares(const double *x, int n) { /* never touches keys */
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

static double scaled_by_first_key(const double *x, int n) { /* reads what keys held before */
  double s = keys[0];
  keys = x;
  return s * x[0];
}

static void check_top2(const double *x, const double *g, double times) {
  int a = 0, b = -1; /* the largest and the second largest */
  for (int i = 1; i < N; i++)
    if (x[i] > x[a]) a = i;
  for (int i = 0; i < N; i++)
    if (i != a && (b < 0 || x[i] > x[b])) b = i;
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], times * (i == a ? x[b] : i == b ? x[a] : 0), 1e-12);
  for (int i = 0; i < N; i++) {
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)top2, x, v, parad_const, N), i == a ? x[b] : i == b ? x[a] : 0, 1e-12);
  }
}

int main(int argc, char **argv) {
  double x[N] = {0.3, 2.0, -1.0, 1.5, 0.7, -2.5}, y[N] = {1.1, -0.4, 0.9, 3.0, 2.2, 0.1}, g[N] = {0};
  if (argc > 1 && !strcmp(argv[1], "reads_first")) {
    top2(y, N); /* leaves keys holding y */
    __parad_autodiff((void *)scaled_by_first_key, x, g, parad_const, N);
    return 0;
  }
  CHECK_CLOSE(top2(x, N), 2.0 * 1.5, 1e-15); /* leaves keys holding x, main's array */
  __parad_autodiff((void *)top2, x, g, parad_const, N);
  check_top2(x, g, 1);
  __parad_autodiff((void *)top2, x, g, parad_const, N); /* adds */
  check_top2(x, g, 2);
  memset(g, 0, sizeof g);
  __parad_autodiff((void *)top2, y, g, parad_const, N);
  check_top2(y, g, 1);
  memset(g, 0, sizeof g);
  __parad_autodiff((void *)sum_squares, x, g, parad_const, N); /* keys holds y */
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], 2 * x[i], 1e-15);
  return check_done();
}
