// qsort of active data, as order statistics and robust losses use it: the sort permutes the elements, and
// the derivatives permute their tangents and adjoints the same way (runtime/sort.c, registered for qsort as
// a program registers a derivative, ad/library.h). Refused before ("qsort would move the values without
// their derivatives").
//   order(x): y_i = x_i^2 + 0.1 i sorted ascending, f = sum_k (k + 1) y_(k)  (a rank-weighted sum)
//   records(x): r_i = {key x_i sin x_i, id i, w x_i^2} sorted by key (the comparator reads only the key),
//   f = sum_k (k + 1) (key_(k) + 2 w_(k)) + sum_k id_(k) x_k
//   sort_into(x, y): y = x_i^2 + 0.1 i sorted in place, an output seeded before the call (reverse mode's
//   forward sweep must leave the seeds where the sorted values end up: it moved them, fuzz seed omp 544)
//   trimmed(x): the mean of the middle half of x_i e^{x_i / 4}, sorted in a heap copy
// Gradient and tangents along each unit direction against the analytic derivative (the permutation taken
// from a sort of the test's own) to 1e-12, vector forward mode (two directions a call: the second moves
// its tangents by the first's permutation, the values being sorted by then), split mode, at -O2 and -O0;
// distinct keys, so no kink is met.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void *__parad_augmentfwd(void *, ...);
void __parad_reverse(void *, ...);
typedef struct {
  double d[2];
} Two;
Two __parad_fwddiff_w2(void *, ...);

enum { N = 9 };

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct {
  double key;
  int id;
  double w;
} Rec;

static int by_key(const void *a, const void *b) {
  double x = ((const Rec *)a)->key, y = ((const Rec *)b)->key;
  return (x > y) - (x < y);
}

static double order(const double *x) {
  double y[N], s = 0;
  for (int i = 0; i < N; i++) y[i] = x[i] * x[i] + 0.1 * i;
  qsort(y, N, sizeof *y, by_value);
  for (int k = 0; k < N; k++) s += (k + 1) * y[k];
  return s;
}

static double records(const double *x) {
  Rec r[N];
  double s = 0;
  for (int i = 0; i < N; i++) r[i].key = x[i] * sin(x[i]), r[i].id = i, r[i].w = x[i] * x[i];
  qsort(r, N, sizeof *r, by_key);
  for (int k = 0; k < N; k++) s += (k + 1) * (r[k].key + 2 * r[k].w) + r[k].id * x[k];
  return s;
}

/* an output sorted in place: its adjoints are in the shadow before the call (seeded by the caller), and
   must stay where the sorted values end up while the forward sweep sorts */
static void sort_into(const double *x, double *y) {
  for (int i = 0; i < N; i++) y[i] = x[i] * x[i] + 0.1 * i;
  qsort(y, N, sizeof *y, by_value);
}

static double trimmed(const double *x) {
  double *y = malloc(N * sizeof *y), s = 0;
  for (int i = 0; i < N; i++) y[i] = x[i] * exp(x[i] / 4);
  qsort(y, N, sizeof *y, by_value);
  for (int k = N / 4; k < N - N / 4; k++) s += y[k];
  free(y);
  return s / (N - 2 * (N / 4));
}

/* rank[i]: where element i ends up when the values v are sorted */
static void ranks(const double *v, int *rank) {
  for (int i = 0; i < N; i++) {
    rank[i] = 0;
    for (int j = 0; j < N; j++) rank[i] += v[j] < v[i];
  }
}

static void check_all(double (*f)(const double *), const double *x, const double *want) {
  double g[N] = {0};
  __parad_autodiff((void *)f, x, g);
  for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], want[j], 1e-12);
  for (int j = 0; j < N; j++) {
    double v[N] = {0};
    v[j] = 1;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), want[j], 1e-12);
  }
  for (int j = 0; j + 1 < N; j += 2) { /* vector forward mode: the second direction moved as the first */
    double v0[N] = {0}, v1[N] = {0};
    v0[j] = v1[j + 1] = 1;
    Two t = __parad_fwddiff_w2((void *)f, parad_width, 2, x, v0, v1);
    CHECK_CLOSE(t.d[0], want[j], 1e-12);
    CHECK_CLOSE(t.d[1], want[j + 1], 1e-12);
  }
  double gs[N] = {0};
  void *tape = __parad_augmentfwd((void *)f, x, gs);
  __parad_reverse((void *)f, x, gs, 1.0, tape);
  for (int j = 0; j < N; j++) CHECK_CLOSE(gs[j], want[j], 1e-12);
  CHECK_CLOSE(want[0], fd_component(f, x, N, 0, 1e-6), 1e-6);
}

int main(void) {
  double x[N], v[N], want[N];
  int rank[N];
  for (int i = 0; i < N; i++) x[i] = sin(1.7 * i + 0.4);

  for (int i = 0; i < N; i++) v[i] = x[i] * x[i] + 0.1 * i;
  ranks(v, rank);
  for (int i = 0; i < N; i++) want[i] = (rank[i] + 1) * 2 * x[i];
  check_all(order, x, want);

  for (int i = 0; i < N; i++) v[i] = x[i] * sin(x[i]);
  ranks(v, rank);
  int at[N]; /* at[k]: the element in position k */
  for (int i = 0; i < N; i++) at[rank[i]] = i;
  for (int i = 0; i < N; i++) want[i] = (rank[i] + 1) * (sin(x[i]) + x[i] * cos(x[i]) + 4 * x[i]) + at[i];
  check_all(records, x, want);

  double y[N], dy[N], dx[N] = {0}; /* y = sort(x_i^2 + 0.1 i), seeded with w_k = k + 1: dx_i = 2 x_i (rank_i + 1) */
  for (int i = 0; i < N; i++) v[i] = x[i] * x[i] + 0.1 * i, dy[i] = i + 1;
  ranks(v, rank);
  __parad_autodiff((void *)sort_into, x, dx, y, dy);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], 2 * x[i] * (rank[i] + 1), 1e-12);
  for (int k = 0; k < N; k++) CHECK_CLOSE(dy[k], 0, 0); /* the outputs' adjoints consumed */
  for (int j = 0; j < N; j++) { /* forward: the tangent of y_k is 2 x_j [rank_j = k] */
    double dxj[N] = {0}, ty[N] = {0};
    dxj[j] = 1;
    __parad_fwddiff((void *)sort_into, x, dxj, y, ty);
    for (int k = 0; k < N; k++) CHECK_CLOSE(ty[k], k == rank[j] ? 2 * x[j] : 0, 1e-12);
  }

  for (int i = 0; i < N; i++) v[i] = x[i] * exp(x[i] / 4);
  ranks(v, rank);
  for (int i = 0; i < N; i++)
    want[i] = rank[i] >= N / 4 && rank[i] < N - N / 4 ? exp(x[i] / 4) * (1 + x[i] / 4) / (N - 2 * (N / 4)) : 0;
  check_all(trimmed, x, want);
  return check_done();
}
