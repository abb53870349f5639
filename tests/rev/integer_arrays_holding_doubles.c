// Arrays declared as `long` that the program uses as storage for doubles (written and read through
// `double *`, as code built with -fno-strict-aliasing may), copied as `long` words: by a helper that is
// not inlined, by an inlined loop, by memcpy, a heap block, and a helper filling the doubles. The copies'
// accesses are tagged (or, without strict aliasing, typed) `long`, and the arrays were made of `long`;
// but their function stores and reads doubles there (memtype.c, reused_kind), so the words move doubles.
// The gradient was zero in both modes at -O1 and -O2, with no message (12 of 40 checks failed before).
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc %cflags -fno-strict-aliasing %s -o %t2 -lm && %t2
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
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

int main(void) {
  double x[N] = {0.3, 1.2, -0.7, 2.0};
  CHECK_GRADIENT(by_helper, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(by_loop, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(by_memcpy, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(on_heap, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(filled, x, N, 1e-12, 1e-5, 1e-6);
  return check_done();
}
