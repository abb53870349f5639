// One swap of 8-byte words called on an array of doubles and on an array of pointers to doubles, in a
// program built without -fno-strict-aliasing (undefined by C's aliasing rule, built as written). Its
// callers pass different kinds of data, and one derivative of the swap serves both: a word is a double's
// or a pointer's only at run time. Reverse mode refuses the swap's stores with the place and the
// function, leaving no output file; before, the words were taken for integers (a zero gradient, and a
// crash in forward mode). A swap called on one kind is differentiated
// (tests/rev/word_copies_strict_aliasing.c).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// CHECK: word_swap_doubles_and_pointers.c:[[@LINE+5]]:6: error: reverse mode cannot tell whether this integer store of active memory carries floating-point data or a pointer in function 'swap_words'
double __parad_autodiff(void *, ...);

__attribute__((noinline)) static void swap_words(unsigned long long *a, unsigned long long *b) {
  unsigned long long t = *a;
  *a = *b;
  *b = t;
}

enum { N = 4 };

double sorted_twice(const double *x) {
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
  double x[N] = {0.5, -1.5, 2.0, 0.25}, g[N] = {0};
  __parad_autodiff((void *)sorted_twice, x, g);
  return g[0] == 0;
}
