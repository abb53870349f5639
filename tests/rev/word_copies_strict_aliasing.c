// Doubles moved as integer words in a program built without -fno-strict-aliasing: a helper copying an
// array through `long *`, a sort swapping elements as `unsigned long long`. C's aliasing rule makes this
// undefined, but every compiler builds the primal as written, and such helpers are common; the words'
// type tags say integers, and both modes gave zero with no message at -O1 and up (a probe of build
// flags). Where the object an access taken for integers reads or writes is, by the type it was made with
// (a local array, what every caller passes), an array of floats of the access's width, the access moves
// those floats (`punned_kind`); of another width (a double's halves through `uint32_t *`) it is refused
// where it meets active data. Pointers to doubles sorted by such a swap of words: moved as pointers, their
// shadows with them (a crash in forward mode and a zero gradient at -O2 before). One swap called on
// doubles and on pointers: tests/rev/word_swap_doubles_and_pointers.c; heap blocks:
// tests/rev/heap_word_copies.c.
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), at -O2,
// -O1 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 5 };

__attribute__((noinline)) static void copy_words(long *dst, const long *src, int n) {
  for (int i = 0; i < n; i++) dst[i] = src[i];
}

static double copied(const double *x) {
  double y[N];
  copy_words((long *)y, (const long *)x, N);
  double s = 0;
  for (int i = 0; i < N; i++) s += y[i] * y[i] * (i + 1) + sin(y[i]);
  return s;
}

__attribute__((noinline)) static void swap_words(unsigned long long *a, unsigned long long *b) {
  unsigned long long t = *a;
  *a = *b;
  *b = t;
}

static double sorted(const double *x) {
  double v[N];
  for (int i = 0; i < N; i++) v[i] = x[i] * x[i] - x[(i + 1) % N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j + 1 < N - i; j++)
      if (v[j] > v[j + 1]) swap_words((unsigned long long *)&v[j], (unsigned long long *)&v[j + 1]);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * v[i];
  return s;
}

__attribute__((noinline)) static void swap_pointer_words(unsigned long long *a, unsigned long long *b) {
  unsigned long long t = *a;
  *a = *b;
  *b = t;
}

static double pointers_sorted(const double *x) {
  double v[N], *p[N];
  for (int i = 0; i < N; i++) v[i] = x[i] * x[i] - x[(i + 2) % N], p[i] = &v[i];
  for (int i = 0; i < N; i++)
    for (int j = 0; j + 1 < N - i; j++)
      if (*p[j] > *p[j + 1]) swap_pointer_words((unsigned long long *)&p[j], (unsigned long long *)&p[j + 1]);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * *p[i] * *p[i];
  return s;
}

int main(void) {
  const double x[N] = {0.3, -1.2, 0.7, 2.1, -0.4};
  CHECK_GRADIENT(copied, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(sorted, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(pointers_sorted, x, N, 1e-12, 1e-5, 1e-6);
  double g[N] = {0};
  __parad_autodiff((void *)copied, x, g);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], 2 * (i + 1) * x[i] + cos(x[i]), 1e-12);
  return check_done();
}
