// Arrays declared as `long` that the program uses as storage for doubles (written and read through
// `double *`, as code built with -fno-strict-aliasing may), copied as `long` words: by a helper that is
// not inlined, by an inlined loop, by memcpy, a heap block, and a helper filling the doubles; a record's
// `long raw[4]` beside a count the helpers copy and increment as an integer, copied two calls down; a
// record of `unsigned w[8]` holding floats; malloc'd `uint64_t` blocks whose doubles only helpers write
// and read; `long` slots holding pointers to doubles. The copies' accesses are tagged (or, without strict
// aliasing, typed) as integers, and the objects were made of integers; but their function, or the
// helpers it passes them to, store and read floats or pointers in that member (memtype.c, reused_kind),
// so the words move those, and the count stays an integer.
// The gradient was zero in both modes at -O1 and -O2, with no message (20 of 72 checks failed before at
// -O2, 28 at -O1).
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc %cflags -fno-strict-aliasing %s -o %t2 -lm && %t2
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
enum { N = 4 };

__attribute__((noinline)) static void copy_words(long *d, const long *s, int n) {
  for (int i = 0; i < n; i++) d[i] = s[i];
}

__attribute__((noinline)) static void fill(double *d, const double *x) {
  for (int i = 0; i < N; i++) d[i] = sin(x[i]);
}

static double by_helper(const double *x) {
  long a[N], b[N];
  double *da = (double *)a, *db = (double *)b;
  for (int i = 0; i < N; i++) da[i] = x[i] * x[i];
  copy_words(b, a, N);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * db[i];
  return s;
}

static double by_loop(const double *x) {
  long a[N], b[N];
  double *da = (double *)a, *db = (double *)b;
  for (int i = 0; i < N; i++) da[i] = x[i] * x[(i + 2) % N];
  for (int i = 0; i < N; i++) b[i] = a[i];
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * db[i] * db[i];
  return s;
}

static double by_memcpy(const double *x) {
  long a[N], b[N];
  for (int i = 0; i < N; i++) ((double *)a)[i] = x[i] * x[(i + 1) % N];
  memcpy(b, a, sizeof a);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 2) * ((double *)b)[i];
  return s;
}

static double on_heap(const double *x) {
  long *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
  for (int i = 0; i < N; i++) ((double *)a)[i] = exp(x[i]);
  copy_words(b, a, N);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * ((double *)b)[i];
  free(a);
  free(b);
  return s;
}

static double filled(const double *x) {
  long a[N], b[N];
  fill((double *)a, x);
  copy_words(b, a, N);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * ((double *)b)[i];
  return s;
}

typedef struct {
  int n;
  long raw[N]; /* storage for doubles */
} Box;

__attribute__((noinline)) static void copy_box(Box *d, const Box *s) {
  d->n = s->n + 1;
  copy_words(d->raw, s->raw, s->n);
}

static double boxed(const double *x) {
  Box a, b;
  a.n = N;
  for (int i = 0; i < N; i++) ((double *)a.raw)[i] = x[i] * x[(i + 1) % N];
  copy_box(&b, &a);
  double s = 0;
  for (int i = 0; i + 1 < b.n; i++) s += (i + 1) * ((double *)b.raw)[i];
  return s;
}

typedef struct {
  unsigned w[2 * N]; /* storage for floats */
} FloatBox;

static double float_words(const double *x) {
  FloatBox a, b;
  for (int i = 0; i < 2 * N; i++) ((float *)a.w)[i] = (float)(x[i % N] * 0.5);
  for (int i = 0; i < 2 * N; i++) b.w[i] = a.w[2 * N - 1 - i];
  double s = 0;
  for (int i = 0; i < 2 * N; i++) s += (i + 1) * (double)((float *)b.w)[i];
  return s;
}

__attribute__((noinline)) static void copy_u64(uint64_t *d, const uint64_t *s, int n) {
  for (int i = 0; i < n; i++) d[i] = s[i];
}

__attribute__((noinline)) static void put(uint64_t *buf, const double *x) {
  for (int i = 0; i < N; i++) ((double *)buf)[i] = x[i] * x[i];
}

__attribute__((noinline)) static double get(const uint64_t *buf) {
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * ((const double *)buf)[i];
  return s;
}

static double through_helpers(const double *x) {
  uint64_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
  put(a, x);
  copy_u64(b, a, N);
  double s = get(b);
  free(a);
  free(b);
  return s;
}

static double pointer_slots(const double *x) {
  long a[N], b[N];
  for (int i = 0; i < N; i++) ((const double **)a)[i] = &x[(i + 1) % N];
  for (int i = 0; i < N; i++) b[i] = a[N - 1 - i];
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * *((const double **)b)[i] * x[i];
  return s;
}

int main(void) {
  double x[N] = {0.3, 1.2, -0.7, 2.0};
  CHECK_GRADIENT(by_helper, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(by_loop, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(by_memcpy, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(on_heap, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(filled, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(boxed, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(through_helpers, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(pointer_slots, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(float_words, x, N, 1e-6, 1e-3, 1e-3); /* floats: rounding of order 1e-7 */
  return check_done();
}
