// C library calls that carry no derivative, inside differentiated functions written as Enzyme's users
// write them, in both modes:
//   weighted: strdup and strndup of names (one read from the active array of structs), qsort of an index
//             array whose comparator reads the active values, printf, fprintf, puts, fputs, snprintf into a
//             local buffer, fflush:   sum_k (k + 1) v_{idx_k}^2 strlen(name_{idx_k}), idx sorting v up;
//   interp:   bsearch for an active key in a table of knots, then linear interpolation: the slope;
//   labelled: snprintf into a buffer the caller passes, after the function read an index from it:
//             the reverse sweep must not read the index again after snprintf changed it.
// Against analytic derivatives (1e-12) and central differences (1e-6). At -O2 and -O0. A qsort of an
// array with derivatives: tests/rev/qsort.c.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;

typedef struct {
  double v;
  const char *name;
} Item;

enum { N = 5 };

/* the comparator reads the active values; qsort moves only the indices */
static const Item *sort_keys;
static int by_value(const void *a, const void *b) {
  double x = sort_keys[*(const int *)a].v, y = sort_keys[*(const int *)b].v;
  return (x > y) - (x < y);
}

static double weighted(const Item *items, int n, const char *tag) {
  int idx[N];
  for (int i = 0; i < n; i++) idx[i] = i;
  qsort(idx, n, sizeof idx[0], by_value);
  char *label = strdup(tag), *prefix = strndup(tag, 2);
  double s = 0;
  for (int k = 0; k < n; k++) {
    char *name = strdup(items[idx[k]].name);
    s += (k + 1) * items[idx[k]].v * items[idx[k]].v * (double)strlen(name);
    free(name);
  }
  char line[64];
  snprintf(line, sizeof line, "%s/%s: %.3f", label, prefix, s);
  printf("%s\n", line);
  fprintf(stderr, "weighted %g\n", s);
  puts(prefix);
  fputs(label, stdout);
  fputs("\n", stdout);
  fflush(stdout);
  free(label);
  free(prefix);
  return s;
}

static const double knots[N] = {0, 1, 2.5, 3, 4.5}, values[N] = {1, 3, 2, 5, 4};
static int segment_of(const void *key, const void *elem) {
  double x = *(const double *)key;
  const double *k = elem;
  return x < k[0] ? -1 : x >= k[1] ? 1 : 0;
}

static double interp(double x) {
  const double *k = bsearch(&x, knots, N - 1, sizeof knots[0], segment_of);
  if (!k) return 0;
  long i = k - knots;
  return values[i] + (values[i + 1] - values[i]) * (x - knots[i]) / (knots[i + 1] - knots[i]);
}

static double labelled(const double *x, char *buf) {
  int c = buf[0] - '0';
  double v = x[c] * x[c];
  snprintf(buf, 8, "%d", 3);
  return v;
}

static Item items[N] = {{0.7, "alpha"}, {-1.2, "be"}, {0.3, "gamma"}, {2.1, "d"}, {-0.4, "epsilon"}};

static double weighted_at(void *ctx, double t) {
  int i = *(int *)ctx;
  double keep = items[i].v;
  items[i].v = t;
  double s = weighted(items, N, "fd");
  items[i].v = keep;
  return s;
}
static double interp_at(void *ctx, double t) {
  (void)ctx;
  return interp(t);
}

int main(void) {
  /* sorted up: -1.2 (be), -0.4 (epsilon), 0.3 (gamma), 0.7 (alpha), 2.1 (d) */
  static const int rank[N] = {3, 0, 2, 4, 1};
  sort_keys = items;
  Item ditems[N] = {{0, NULL}};
  __enzyme_autodiff((void *)weighted, items, ditems, enzyme_const, N, enzyme_const, "grad");
  for (int i = 0; i < N; i++) {
    double want = 2 * (rank[i] + 1) * items[i].v * (double)strlen(items[i].name);
    CHECK_CLOSE(ditems[i].v, want, 1e-12);
    Item t[N] = {{0, NULL}};
    t[i].v = 1;
    CHECK_CLOSE(__enzyme_fwddiff((void *)weighted, items, t, enzyme_const, N, enzyme_const, "tangent"), want, 1e-12);
    CHECK_CLOSE(ditems[i].v, fd_central(weighted_at, &i, items[i].v, 1e-5), 1e-6);
  }

  /* slopes 2, -2/3, 6, -2/3 on the four segments */
  static const double at[4] = {0.5, 1.75, 2.6, 4.0}, slope[4] = {2, -2.0 / 3, 6, -2.0 / 3};
  for (int s = 0; s < 4; s++) {
    CHECK_CLOSE(__enzyme_autodiff((void *)interp, at[s]), slope[s], 1e-12);
    CHECK_CLOSE(__enzyme_fwddiff((void *)interp, at[s], 1.0), slope[s], 1e-12);
    CHECK_CLOSE(__enzyme_fwddiff((void *)interp, at[s], 1.0), fd_central(interp_at, NULL, at[s], 1e-5), 1e-6);
  }

  double x[4] = {1, 2, 3, 4}, dx[4] = {0, 0, 0, 0}, tx[4] = {0, 1, 0, 0};
  char buf[8] = "1";
  __enzyme_autodiff((void *)labelled, x, dx, enzyme_const, buf);
  CHECK_CLOSE(buf[0], '3', 0);
  for (int i = 0; i < 4; i++) CHECK_CLOSE(dx[i], i == 1 ? 4 : 0, 1e-12);
  buf[0] = '1';
  CHECK_CLOSE(__enzyme_fwddiff((void *)labelled, x, tx, enzyme_const, buf), 4, 1e-12);
  return check_done();
}
