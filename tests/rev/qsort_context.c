// qsort_r (GNU: base, n, size, comparator, context), as qsort: the sort's derivatives permute the
// tangents or adjoints the way the sort permuted the values (ad/library.h); it was refused ("which no file
// of the program ... defines"). An argsort whose comparator reads the keys through its context, and a sort
// of copies of the values whose direction the context gives. Gradients (reverse), tangents (forward, and
// vector forward mode of width 2) against the analytic ones (1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#define _GNU_SOURCE
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
typedef struct {
  double a, b;
} Two;
Two __parad_fwddiff_two(void *, ...);

enum { N = 4 };

static int by_key(const void *a, const void *b, void *keys) {
  const double *k = keys;
  double x = k[*(const int *)a], y = k[*(const int *)b];
  return (x > y) - (x < y);
}

/* sum_k (k + 1) x_(k)^2 over x in ascending order */
static double ranked(const double *x, int n) {
  int idx[N];
  for (int i = 0; i < n; i++) idx[i] = i;
  qsort_r(idx, n, sizeof idx[0], by_key, (void *)x);
  double s = 0;
  for (int k = 0; k < n; k++) s += (k + 1) * x[idx[k]] * x[idx[k]];
  return s;
}

static int directed(const void *a, const void *b, void *dir) {
  double x = *(const double *)a, y = *(const double *)b;
  return *(const int *)dir * ((x > y) - (x < y));
}

/* sum_k (k + 1) y_k over y = x in descending order */
static double descending(const double *x, int n) {
  double y[N];
  int dir = -1;
  for (int i = 0; i < n; i++) y[i] = x[i];
  qsort_r(y, n, sizeof y[0], directed, &dir);
  double s = 0;
  for (int k = 0; k < n; k++) s += (k + 1) * y[k];
  return s;
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.55}, dr[N] = {0}, dd[N] = {0};
  /* ascending: -0.7 (x1), 0.3 (x0), 0.55 (x3), 1.1 (x2); descending: x2, x3, x0, x1 */
  const double rank_up[N] = {2, 1, 4, 3}, rank_down[N] = {3, 4, 1, 2};
  __parad_autodiff((void *)ranked, x, dr, parad_const, N);
  __parad_autodiff((void *)descending, x, dd, parad_const, N);
  for (int i = 0; i < N; i++) {
    double e[N] = {0}, e2[N] = {0};
    e[i] = 1, e2[(i + 1) % N] = 1;
    CHECK_CLOSE(dr[i], 2 * rank_up[i] * x[i], 1e-12);
    CHECK_CLOSE(dd[i], rank_down[i], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)ranked, x, e, parad_const, N), 2 * rank_up[i] * x[i], 1e-12);
    Two t = __parad_fwddiff_two((void *)descending, parad_width, 2, x, e, e2, parad_const, N);
    CHECK_CLOSE(t.a, rank_down[i], 1e-12);
    CHECK_CLOSE(t.b, rank_down[(i + 1) % N], 1e-12);
  }
  return check_done();
}
