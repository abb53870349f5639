// A union of an array of doubles and an array of 8-byte words, copied through its words by a helper kept
// a call and read back as doubles: reading another member than the one written is C's own type punning,
// legal under strict aliasing. Clang tags a union member's accesses as memory that may hold anything, but
// the words' address was computed in the member's type (`getelementptr [4 x i64]`), and the copy was
// taken for one of integers: both modes gave zero with no message at -O1 and up (a probe of build
// flags). Under such a tag an integer member's type now says nothing of the memory, nor does a union's
// type (clang types it as its first member): what the callers store and load there does.
//   doubles_first: union { double d[4]; long w[4]; }, copied word by word;
//   words_first:   union { long w[4]; double d[4]; }, its type's first member the words, swapped halves.
// Under -fno-strict-aliasing no tag marks the union: there the member array's base is asked what its
// callers pass (a union), and the member's integer type is doubted the same way.
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), at -O2,
// -O1, -Os and -O0, and at -O2 with -fno-strict-aliasing.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -Os -I%S/../include %s -o %ts -lm && %ts
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags -fno-strict-aliasing %s -o %tl -lm && %tl
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 4 };

typedef union {
  double d[N];
  long w[N];
} Doubles;

__attribute__((noinline)) static void copy_doubles(Doubles *dst, const Doubles *src) {
  for (int k = 0; k < N; k++) dst->w[k] = src->w[k];
}

static double doubles_first(const double *x) {
  Doubles a, b;
  for (int i = 0; i < N; i++) a.d[i] = x[i] * x[i] + 1.0;
  copy_doubles(&b, &a);
  double s = 0;
  for (int i = 0; i < N; i++) s += log(b.d[i]) * (i + 1);
  return s;
}

typedef union {
  long w[N];
  double d[N];
} Words;

__attribute__((noinline)) static void swap_halves(Words *u) {
  for (int k = 0; k < N / 2; k++) {
    long t = u->w[k];
    u->w[k] = u->w[k + N / 2];
    u->w[k + N / 2] = t;
  }
}

static double words_first(const double *x) {
  Words u;
  for (int i = 0; i < N; i++) u.d[i] = sin(x[i]) * x[(i + 1) % N];
  swap_halves(&u);
  double s = 0;
  for (int i = 0; i < N; i++) s += u.d[i] * u.d[i] * (i + 1);
  return s;
}

int main(void) {
  const double x[N] = {0.3, -1.2, 0.7, 2.1};
  CHECK_GRADIENT(doubles_first, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(words_first, x, N, 1e-12, 1e-5, 1e-6);
  double g[N] = {0};
  __parad_autodiff((void *)doubles_first, x, g); /* sum (i+1) log(x_i^2 + 1) */
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], (i + 1) * 2 * x[i] / (x[i] * x[i] + 1), 1e-12);
  return check_done();
}
