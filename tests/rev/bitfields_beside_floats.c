// Bitfields in structs that hold doubles, in heap blocks: clang reads and writes a bitfield's storage a
// byte at a time with no type tag, and where the optimiser addresses the block by byte offsets no struct
// type is left either, so the byte was taken for part of a double's bits and refused at -O1 and up ("integer
// arithmetic on the bits of an active floating-point value", "a part of a float's bits moved as a smaller
// integer"). A struct's own byte member is an integer now, and an untagged integer access at a fixed
// offset into a block is placed among the block's typed accesses (an integer where none of them is a
// float or a pointer). Three shapes: an array of {flags : 1, kind : 3, double q} cells, a header with
// flags before a flexible array of doubles, the same header before a fixed array. Gradients and tangents
// against the analytic ones (1e-12), at -O2 (%cflags), -O1 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <stdlib.h>

#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 5 };

struct cell {
  unsigned alive : 1;
  unsigned kind : 3;
  double q;
};

/* sum over the live cells of q^2 (kind + 1); cell 2 is dead */
static double cells(const double *x, int n) {
  struct cell *c = malloc(n * sizeof *c);
  for (int i = 0; i < n; i++) c[i].alive = i != 2, c[i].kind = i & 7, c[i].q = x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    if (c[i].alive) s += c[i].q * c[i].q * (c[i].kind + 1);
  free(c);
  return s;
}

struct series {
  int n;
  unsigned squared : 1, halved : 1;
  double coef[];
};

/* r = sum_i c_i / 2^i with c_i = x_i (i + 1), squared */
static double series(const double *x, int n) {
  struct series *s = malloc(sizeof *s + n * sizeof(double));
  s->n = n, s->squared = 1, s->halved = 1;
  for (int i = 0; i < n; i++) s->coef[i] = x[i] * (i + 1);
  double r = 0;
  for (int i = s->n - 1; i >= 0; i--) r = (s->halved ? r * 0.5 : r) + s->coef[i];
  if (s->squared) r *= r;
  free(s);
  return r;
}

struct fixed {
  int n;
  unsigned squared : 1;
  double coef[N];
};

static double fixed(const double *x, int n) {
  struct fixed *s = malloc(sizeof *s);
  s->n = n, s->squared = 1;
  for (int i = 0; i < n; i++) s->coef[i] = x[i] * (i + 1);
  double r = 0;
  for (int i = s->n - 1; i >= 0; i--) r = r * 0.5 + s->coef[i];
  if (s->squared) r *= r;
  free(s);
  return r;
}

static void check(double (*fn)(const double *, int), const double *x, const double *want) {
  double g[N] = {0};
  __parad_autodiff((void *)fn, x, g, parad_const, N);
  for (int i = 0; i < N; i++) {
    double e[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(g[i], want[i], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)fn, x, e, parad_const, N), want[i], 1e-12);
  }
}

int main(void) {
  double x[N] = {1.7, 0.6, -0.4, 0.9, -1.2}, r = 0, dcells[N], dseries[N];
  for (int i = N - 1; i >= 0; i--) r = r * 0.5 + x[i] * (i + 1);
  for (int i = 0; i < N; i++) dcells[i] = i == 2 ? 0 : 2 * x[i] * (i + 1), dseries[i] = 2 * r * (i + 1) / (double)(1 << i);
  check(cells, x, dcells);
  check(series, x, dseries);
  check(fixed, x, dseries);
  return check_done();
}
