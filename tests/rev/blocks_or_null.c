// Heap blocks that are null when their size is 0 (`n ? malloc(...) : NULL`, as C++'s std::vector does): the
// optimiser joins each block with null in a phi. The memory analysis once took null for an object, so every
// such block of a function was one object: the doubles copied from x (memcpy) shared a layout with a block
// of structs holding pointers. Reverse mode then took the copy for one of pointers and dropped the doubles'
// adjoints (a gradient of zeros, no message: `handles`, and C++'s vector<double> beside a
// vector<unique_ptr>), or refused the copy as mixed data (`items`).
//   f(x) = sum_k w_k x_{id_k}^2, w_k = 1 + k, id_k = k mod n, over m = 6 entries and n = 4 inputs:
//   df/dx_i = 2 x_i sum_{k: id_k = i} w_k.
// Gradients against the analytic ones (tolerance 1e-12), tangents along each unit direction against them
// (1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 4, M = 6 };

typedef struct {
  double w;
  int id;
} Item;
typedef struct {
  Item *p;
} Handle;

/* the entries behind a block of structs that hold pointers */
__attribute__((noinline)) static double handles(const double *x, int n, int m) {
  double *d = n ? malloc(n * sizeof *d) : NULL;
  if (n) memcpy(d, x, n * sizeof *d);
  Handle *h = m ? malloc(m * sizeof *h) : NULL;
  for (int k = 0; k < m; k++) {
    h[k].p = malloc(sizeof *h[k].p);
    h[k].p->w = 1.0 + k, h[k].p->id = k % n;
  }
  double s = 0;
  for (int k = 0; k < m; k++) s += h[k].p->w * d[h[k].p->id] * d[h[k].p->id];
  for (int k = 0; k < m; k++) free(h[k].p);
  free(h);
  free(d);
  return s;
}

/* the same behind a block of pointers */
__attribute__((noinline)) static double items(const double *x, int n, int m) {
  double *d = n ? malloc(n * sizeof *d) : NULL;
  if (n) memcpy(d, x, n * sizeof *d);
  Item **it = m ? malloc(m * sizeof *it) : NULL;
  for (int k = 0; k < m; k++) {
    it[k] = malloc(sizeof **it);
    it[k]->w = 1.0 + k, it[k]->id = k % n;
  }
  double s = 0;
  for (int k = 0; k < m; k++) s += it[k]->w * d[it[k]->id] * d[it[k]->id];
  for (int k = 0; k < m; k++) free(it[k]);
  free(it);
  free(d);
  return s;
}

#define CHECK(f)                                                                                   \
  do {                                                                                             \
    double x[N] = {0.3, 0.5, 0.7, 1.1}, g[N] = {0}, v[N];                                          \
    __parad_autodiff((void *)f, x, g, parad_const, N, parad_const, M);                             \
    for (int i = 0; i < N; i++) {                                                                  \
      double w = 0;                                                                                \
      for (int k = 0; k < M; k++) w += k % N == i ? 1.0 + k : 0;                                   \
      CHECK_CLOSE(g[i], 2 * x[i] * w, 1e-12);                                                      \
      for (int j = 0; j < N; j++) v[j] = i == j;                                                   \
      CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, parad_const, N, parad_const, M), 2 * x[i] * w, 1e-12); \
    }                                                                                              \
  } while (0)

int main(void) {
  CHECK(handles);
  CHECK(items);
  return check_done();
}
