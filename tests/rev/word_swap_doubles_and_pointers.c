// One swap of 8-byte words called on an array of doubles and on an array of pointers to doubles, in a
// program built without -fno-strict-aliasing (undefined by C's aliasing rule, built as written). Its
// callers pass different kinds of data, which one derivative of the swap could not serve: a word is a
// double's or a pointer's only at run time, and reverse mode refused the swap's stores (before that, the
// words were taken for integers: a zero gradient, and a crash in forward mode). The swap is now copied
// once per kind its callers give its word moves (ad/copy_contexts.c), as helpers that copy with memcpy
// were (tests/rev/word_swap_kinds.c has the memcpy-through-uint64_t form). A swap called on one kind:
// tests/rev/word_copies_strict_aliasing.c.
//   f(x): v_i = x_i^2 and p_i = &v_i, one bubble pass ascending over v and one descending over p, both
//   with the one swap; f = sum_i (i+1) *p_i
// Gradient against tangents along each unit direction (1e-12) and central differences (h 1e-6, 1e-6), at
// -O2, -O1 and -O0; no kink is met.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static void swap_words(unsigned long long *a, unsigned long long *b) {
  unsigned long long t = *a;
  *a = *b;
  *b = t;
}

enum { N = 4 };

static double sorted_twice(const double *x) {
  double v[N], *p[N];
  for (int i = 0; i < N; i++) v[i] = x[i] * x[i], p[i] = &v[i];
  for (int i = 0; i + 1 < N; i++)
    if (v[i] > v[i + 1]) swap_words((unsigned long long *)&v[i], (unsigned long long *)&v[i + 1]);
  for (int i = 0; i + 1 < N; i++)
    if (*p[i] < *p[i + 1]) swap_words((unsigned long long *)&p[i], (unsigned long long *)&p[i + 1]);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * *p[i];
  return s;
}

int main(void) {
  double x[N] = {0.5, -1.5, 2.0, 0.25};
  CHECK_GRADIENT(sorted_twice, x, N, 1e-12, 1e-6, 1e-6);
  return check_done();
}
