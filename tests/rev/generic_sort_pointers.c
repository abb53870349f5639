// An insertion sort of any element size (elements swapped whole with memcpy through a byte buffer, the
// order told by a comparison function), as C programs sort: an array of pointers into active memory
// ordered by what they point to, an array of doubles, and records of two doubles by their key. The
// swap's temporary read the pointer's shadow after the swap had overwritten it, so both pointers got the
// same shadow: wrong gradients with no message (at -O0 too, the program being made at the link); at -O2
// the swap, called with three kinds, was refused. At -Os the sort too stays a call, and the swap's kinds
// are two calls up: refused until the sort is copied per call first (ad/copy_contexts.c). Checked against
// central finite differences (1e-5) and the tangent against the gradient (1e-9), the swap inlined
// (-DINLINE) or a call, at -O2, -Os and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc %cflags -DINLINE %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t -lm && %t
// RUN: %parad-cc -Os -I%S/../include %s -o %t -lm && %t
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parad.h"
typedef int (*Cmp)(const void *, const void *);
#ifdef INLINE
#define HELPER static inline
#else
#define HELPER __attribute__((noinline)) static
#endif
HELPER void swap(void *a, void *b, size_t n) {
  unsigned char t[32];
  memcpy(t, a, n); memcpy(a, b, n); memcpy(b, t, n);
}
HELPER void isort(void *base, size_t count, size_t size, Cmp cmp) {
  char *b = base;
  for (size_t i = 1; i < count; i++)
    for (size_t j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--) swap(b + (j - 1) * size, b + j * size, size);
}
static int by_value(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static int by_pointee(const void *a, const void *b) { double x = **(double *const *)a, y = **(double *const *)b; return (x > y) - (x < y); }
typedef struct { double key, w; } Rec;
static int by_key(const void *a, const void *b) { double x = ((const Rec *)a)->key, y = ((const Rec *)b)->key; return (x > y) - (x < y); }
static double f(const double *x, int n, double *work) {
  double *v = work, **p = malloc(n * sizeof *p);
  Rec *r = malloc(n * sizeof *r);
  for (int i = 0; i < n; i++) v[i] = x[i] * x[i] - x[(i + 1) % n], p[i] = &v[i], r[i] = (Rec){x[i], sin(x[i])};
  isort(p, n, sizeof *p, by_pointee);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * *p[i];
  isort(v, n, sizeof *v, by_value);
  isort(r, n, sizeof *r, by_key);
  for (int i = 0; i < n; i++) s += v[i] * (n - i) + r[i].w * i;
  free(p); free(r);
  return s;
}
int main(void) {
  enum { N = 6 };
  double x[N] = {0.3, -1.2, 2.5, 0.7, -0.1, 1.9}, dx[N] = {0}, w[N], dw[N] = {0}, h = 1e-7;
  __parad_autodiff((void *)f, x, dx, N, w, dw);
  int bad = 0; double v[N], t = 0;
  for (int i = 0; i < N; i++) {
    double o = x[i]; x[i] = o + h; double fp = f(x, N, w); x[i] = o - h; double fm = f(x, N, w); x[i] = o;
    double fd = (fp - fm) / (2 * h);
    if (fabs(fd - dx[i]) > 1e-5 * (1 + fabs(fd))) printf("dx[%d] %g fd %g\n", i, dx[i], fd), bad = 1;
    v[i] = cos(i); t += v[i] * dx[i];
  }
  double tan = __parad_fwddiff((void *)f, x, v, N, w, dw);
  if (fabs(tan - t) > 1e-9 * (1 + fabs(t))) printf("tangent %g want %g\n", tan, t), bad = 1;
  printf(bad ? "BAD\n" : "ok\n");
  return bad;
}
