// Blocks grown by realloc whose kind the compiler cannot tell, built as programs build them:
// - a vector with a flexible array member (int n, cap; double data[]) at -O2, whose addresses are bytes
//   (refused before: "cannot tell what this realloc moves (mixed data)");
// - a generic vector (void *data, element size) of records {int id; double w;} read back through byte
//   offsets (refused at -O2);
// - an array of adjacency lists, each a growable array of {int to; double w;} (refused at -O2 and -O0);
// - a small-buffer vector of doubles, moved from its inline buffer to the heap and grown by realloc
//   (refused at every level).
// Such a block's shadow now moves as bytes, and back in the reverse sweep, whatever it holds.
// f = sum_i x_i^2 (the flexible vector) + sum_i (i+1) x_i^2 (generic) + sum_k (k+1) x_k^2 (lists)
//   + sum_i (i+1) x_i x_{i+1} (small-buffer vector), so df/dx_i is known in closed form.
// Gradient against the analytic one (1e-12) and forward tangents along each unit direction (1e-12), at
// -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include <string.h>
#include "parad.h"
#include "check.h"

enum { N = 7 };

typedef struct {
  int n, cap;
  double data[];
} Flex;

__attribute__((noinline)) static Flex *flex_push(Flex *v, double x) {
  if (v->n == v->cap) {
    v->cap *= 2;
    v = realloc(v, sizeof *v + v->cap * sizeof(double));
  }
  v->data[v->n++] = x;
  return v;
}

static double flex(const double *x, int n) {
  Flex *v = malloc(sizeof *v + 2 * sizeof(double));
  v->n = 0, v->cap = 2;
  for (int i = 0; i < n; i++) v = flex_push(v, x[i] * x[i]);
  double s = 0;
  for (int i = 0; i < v->n; i++) s += v->data[i];
  free(v);
  return s;
}

typedef struct {
  void *data;
  size_t size, len, cap;
} Vec;

static void vec_push(Vec *v, const void *elem) {
  if (v->len == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 1;
    v->data = realloc(v->data, v->cap * v->size);
  }
  memcpy((char *)v->data + v->len++ * v->size, elem, v->size);
}

typedef struct {
  int id;
  double w;
} Rec;

static double generic(const double *x, int n) {
  Vec v = {NULL, sizeof(Rec), 0, 0};
  for (int i = 0; i < n; i++) {
    Rec r = {i, x[i] * x[i]};
    vec_push(&v, &r);
  }
  double s = 0;
  for (size_t i = 0; i < v.len; i++) {
    const Rec *r = (const Rec *)((char *)v.data + i * v.size);
    s += r->w * (r->id + 1);
  }
  free(v.data);
  return s;
}

typedef struct {
  int to;
  double w;
} Edge;
typedef struct {
  Edge *e;
  int n, cap;
} Adj;

static void add_edge(Adj *l, int to, double w) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 2;
    l->e = realloc(l->e, l->cap * sizeof(Edge));
  }
  l->e[l->n].to = to, l->e[l->n].w = w;
  l->n++;
}

static double lists(const double *x, int n) {
  Adj g[2] = {{0}};
  for (int k = 0; k < n; k++) add_edge(&g[k % 2], k, x[k] * x[k]);
  double s = 0;
  for (int a = 0; a < 2; a++)
    for (int k = 0; k < g[a].n; k++) s += g[a].e[k].w * (g[a].e[k].to + 1);
  free(g[0].e);
  free(g[1].e);
  return s;
}

typedef struct {
  double *data;
  int len, cap;
  double inline_buf[2];
} Small;

static void small_push(Small *v, double d) {
  if (v->len == v->cap) {
    if (v->data == v->inline_buf) {
      double *h = malloc(2 * v->cap * sizeof(double));
      memcpy(h, v->inline_buf, v->len * sizeof(double));
      v->data = h;
    } else {
      v->data = realloc(v->data, 2 * v->cap * sizeof(double));
    }
    v->cap *= 2;
  }
  v->data[v->len++] = d;
}

static double small(const double *x, int n) {
  Small v;
  v.data = v.inline_buf, v.len = 0, v.cap = 2;
  for (int i = 0; i + 1 < n; i++) small_push(&v, (i + 1) * x[i] * x[i + 1]);
  double s = 0;
  for (int i = 0; i < v.len; i++) s += v.data[i];
  if (v.data != v.inline_buf) free(v.data);
  return s;
}

static double f(const double *x, int n) { return flex(x, n) + generic(x, n) + lists(x, n) + small(x, n); }

int main(void) {
  double x[N] = {0.3, -1.2, 0.7, 2.1, -0.4, 1.1, 0.9}, dx[N] = {0};
  __parad_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i++) {
    double want = 2 * x[i] + 2 * (i + 1) * x[i] + 2 * (i + 1) * x[i], v[N] = {0};
    if (i + 1 < N) want += (i + 1) * x[i + 1];
    if (i > 0) want += i * x[i - 1];
    v[i] = 1;
    CHECK_CLOSE(dx[i], want, 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, N), want, 1e-12);
  }
  return check_done();
}
