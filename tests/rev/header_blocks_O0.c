// Heap blocks of a header and an array running to the block's end, as C programs grow them, at -O0 (where
// the struct type says what the block holds): a vector with a flexible array member (struct { int n, cap;
// double data[]; }) grown by realloc in a helper; the same with the struct hack before C99 (double
// data[1], the block allocated longer); a clone of a whole block by one memcpy, header included. Each
// layout was once taken for an array of such structs repeating every sizeof bytes: the realloc's and the
// clone's adjoints went to the wrong bytes, silently (4 to 12 of the 24 checks here failed).
// f(x) = sum_i (i + 1) (a_i + b_i + c_i) with a, b, c the three blocks holding x_i^2, x_i and x_i x_i;
// analytic df/dx_j = (j + 1)(4 x_j + 1) (tolerance 1e-12), forward tangents along every unit direction (1e-12).
// RUN: %parad-cc -O0 -I%S/../include %s -o %t && %t
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 12 };

typedef struct {
  int n, cap;
  double data[];
} Vec;

typedef struct {
  int n, cap;
  double data[1];
} OldVec;

static Vec *push(Vec *v, double x) {
  if (v->n == v->cap) {
    v->cap *= 2;
    v = realloc(v, sizeof *v + v->cap * sizeof(double));
  }
  v->data[v->n++] = x;
  return v;
}

static OldVec *push_old(OldVec *v, double x) {
  if (v->n == v->cap) {
    v->cap *= 2;
    v = realloc(v, sizeof *v + (v->cap - 1) * sizeof(double));
  }
  v->data[v->n++] = x;
  return v;
}

static double f(const double *x) {
  Vec *a = malloc(sizeof *a + 2 * sizeof(double));
  OldVec *b = malloc(sizeof *b + sizeof(double));
  a->n = 0, a->cap = 2, b->n = 0, b->cap = 2;
  for (int i = 0; i < N; i++) a = push(a, x[i] * x[i]), b = push_old(b, x[i]);
  size_t bytes = sizeof *a + N * sizeof(double);
  Vec *c = malloc(bytes);
  memcpy(c, a, bytes);
  double s = 0;
  for (int i = 0; i < c->n; i++) s += (i + 1) * (a->data[i] + b->data[i] + c->data[i]);
  free(a), free(b), free(c);
  return s;
}

int main(void) {
  double x[N], g[N] = {0}, v[N];
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.1 * i;
  __parad_autodiff((void *)f, x, g);
  for (int j = 0; j < N; j++) {
    double want = (j + 1) * (4 * x[j] + 1);
    CHECK_CLOSE(g[j], want, 1e-12);
    for (int i = 0; i < N; i++) v[i] = i == j;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), want, 1e-12);
  }
  return check_done();
}
