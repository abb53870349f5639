// Generic byte loops where their helpers are inlined with a constant size: a swap of records written with
// an index (`for (i = 0; i < n; i++)`), a copy of one record, a swap of pairs of doubles in a heap block.
// Where the records are values after inlining (ends), the unrolled loops made their bytes parts of their
// floats' bits, which reverse mode refused at every level ("a part of a float's bits moved as a smaller
// integer"); the loops are found as the helpers have them now, before inlining (ad/byte_loops.h).
//   records(x): {a x_i, b x_i^2, id i} in a local array, sorted by a descending by a generic insertion
//               sort, the first copied out: f = sum_k (k+1)(a_(k) + b_(k) id_(k)) + 3 first.b
//   ends(x):    {a x_i, b x_i x_{i+1}, id i+1}, i < 3, in a local array, the first and last swapped, the middle
//               copied out: f = sum_k (k+1)(a_k + b_k id_k) + middle.a middle.b
//   pairs(x):   (x_i, x_i^3) pairs in a heap block, reversed by swapping whole pairs: f = sum_k (k+1) p_k q_k
// Gradients against tangents along each unit direction (1e-12) and central differences (h 1e-6, 1e-6).
// The keys are distinct: no kink is met.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 5 };

static void swap_any(void *a, void *b, size_t n) {
  unsigned char *p = a, *q = b;
  for (size_t i = 0; i < n; i++) {
    unsigned char t = p[i];
    p[i] = q[i];
    q[i] = t;
  }
}

static void copy_any(void *to, const void *from, size_t n) {
  char *d = to;
  const char *s = from;
  for (size_t i = 0; i < n; i++) d[i] = s[i];
}

typedef struct {
  double a, b;
  int id;
} Record;

static double records(const double *x) {
  Record r[N], first;
  for (int i = 0; i < N; i++) r[i] = (Record){x[i], x[i] * x[i], i};
  for (int i = 1; i < N; i++)
    for (int j = i; j > 0 && r[j - 1].a < r[j].a; j--) swap_any(&r[j - 1], &r[j], sizeof(Record));
  copy_any(&first, &r[0], sizeof first);
  double f = 3 * first.b;
  for (int k = 0; k < N; k++) f += (k + 1) * (r[k].a + r[k].b * r[k].id);
  return f;
}

static double ends(const double *x) {
  Record r[3], middle;
  for (int i = 0; i < 3; i++) r[i] = (Record){x[i], x[i + 1] * x[i], i + 1};
  swap_any(&r[0], &r[2], sizeof(Record));
  copy_any(&middle, &r[1], sizeof middle);
  double f = middle.a * middle.b;
  for (int k = 0; k < 3; k++) f += (k + 1) * (r[k].a + r[k].b * r[k].id);
  return f;
}

static double pairs(const double *x) {
  double *p = malloc(2 * N * sizeof *p);
  for (int i = 0; i < N; i++) p[2 * i] = x[i], p[2 * i + 1] = x[i] * x[i] * x[i];
  for (int i = 0, j = N - 1; i < j; i++, j--) swap_any(p + 2 * i, p + 2 * j, 2 * sizeof *p);
  double f = 0;
  for (int k = 0; k < N; k++) f += (k + 1) * p[2 * k] * p[2 * k + 1];
  free(p);
  return f;
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.9, 2.1, -0.4};
  CHECK_GRADIENT(records, x, N, 1e-12, 1e-6, 1e-6);
  CHECK_GRADIENT(ends, x, N, 1e-12, 1e-6, 1e-6);
  CHECK_GRADIENT(pairs, x, N, 1e-12, 1e-6, 1e-6);
  return check_done();
}
