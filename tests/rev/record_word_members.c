// Records that mix doubles with integer members read as integers: an array `long idx[3]` indexed at run
// time and passed to a helper as `long *`, an `int n` beside the doubles. An integer access into records
// holding floats is checked against the record's layout (it could be a word of a generic copy that moves
// a double, tests/diag/word_copies_mixed_records.c); one at a variable index inside an integer member
// array is that member, and the gradient is built. A record's `double vals[4]` copied by a helper through
// `long *` (undefined by C's aliasing rule, built as written) moves doubles: zero in both modes at -O1
// and up before (the helper is given `dst->vals`, which the optimiser writes as a byte offset). Records
// `{int id; double x;}` swapped as two `long` words at fixed places: the first word is the int and its
// padding, the second the double (the old compiler's gradient at -O2: 1 of 5 components right).
// Built with -fno-strict-aliasing, where no access carries a type tag, the helpers' `long` accesses are
// what the objects they are given hold there: `long idx[3]` integers, `double vals[4]` doubles (refused
// before, as an integer store that could carry a float). Gradients against tangents along each unit
// direction (1e-12) and central differences (1e-6), at -O2 and -O0, and at -O2 and -O1 without strict
// aliasing.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc %cflags -fno-strict-aliasing %s -o %t2 -lm && %t2
// RUN: %parad-cc -O1 -fno-strict-aliasing -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 5 };

typedef struct {
  long idx[3];
  double v[3];
  int n;
  double scale;
} Row;

__attribute__((noinline)) static double row_dot(const Row *r, const double *x) {
  double s = 0;
  for (int k = 0; k < r->n; k++) s += r->v[k] * x[r->idx[k]];
  return s * r->scale;
}

__attribute__((noinline)) static void rotate(long *p, int n) {
  for (int i = 0; i < n; i++) p[i] = (p[i] + 1) % N;
}

static double rows(const double *x) {
  Row r[N];
  for (int i = 0; i < N; i++) {
    r[i].n = 3;
    r[i].scale = x[i];
    for (int k = 0; k < 3; k++) {
      r[i].idx[k] = (i + k) % N;
      r[i].v[k] = sin(x[(i + 2 * k) % N]);
    }
  }
  for (int i = 0; i < N; i++) rotate(r[i].idx, 3);
  double s = 0;
  for (int i = 0; i < N; i++) s += row_dot(&r[i], x);
  return s;
}

typedef struct {
  int n;
  double vals[4];
} Vec;

__attribute__((noinline)) static void copy_words(long *dst, const long *src, int n) {
  for (int i = 0; i < n; i++) dst[i] = src[i];
}

__attribute__((noinline)) static void assign(Vec *dst, const Vec *src) {
  dst->n = src->n;
  copy_words((long *)dst->vals, (const long *)src->vals, src->n);
}

static double assigned(const double *x) {
  Vec a, b;
  a.n = 4;
  for (int i = 0; i < 4; i++) a.vals[i] = x[i] * x[i + 1];
  assign(&b, &a);
  double s = 0;
  for (int i = 0; i < b.n; i++) s += (i + 1) * b.vals[i] * b.vals[i];
  return s;
}

typedef struct {
  int id;
  double x;
} Keyed;

__attribute__((noinline)) static void swap_two_words(void *a, void *b) {
  long *p = a, *q = b;
  long t0 = p[0], t1 = p[1];
  p[0] = q[0], p[1] = q[1];
  q[0] = t0, q[1] = t1;
}

static double keyed_sort(const double *x) {
  Keyed r[N];
  for (int i = 0; i < N; i++) r[i].id = i, r[i].x = x[i] * x[i] - x[(i + 1) % N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j + 1 < N - i; j++)
      if (r[j].x > r[j + 1].x) swap_two_words(&r[j], &r[j + 1]);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * r[i].x * (r[i].id + 1);
  return s;
}

int main(void) {
  const double x[N] = {0.3, -1.2, 0.7, 2.1, -0.4};
  CHECK_GRADIENT(rows, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(assigned, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(keyed_sort, x, N, 1e-12, 1e-5, 1e-6);
  return check_done();
}
