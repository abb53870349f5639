// A vector with a flexible array member grown by realloc, built with -O2: the optimiser's addresses are
// bytes (getelementptr i8), no struct type says which of the moved bytes are the header's integers and
// which the array's doubles, so reverse mode refuses the realloc rather than guess (at -O0 it is
// differentiated: tests/rev/header_blocks_O0.c).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
#include <stdlib.h>

typedef struct {
  int n, cap;
  double data[];
} Vec;

__attribute__((noinline)) static Vec *push(Vec *v, double x) {
  if (v->n == v->cap) {
    v->cap *= 2;
    // CHECK: header_block_realloc.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot tell what this realloc moves (mixed data) in function 'push'
    v = realloc(v, sizeof *v + v->cap * sizeof(double));
  }
  v->data[v->n++] = x;
  return v;
}

__attribute__((noinline)) static double f(const double *x, int n) {
  Vec *v = malloc(sizeof *v + 2 * sizeof(double));
  v->n = 0, v->cap = 2;
  for (int i = 0; i < n; i++) v = push(v, x[i] * x[i]);
  double s = 0;
  for (int i = 0; i < v->n; i++) s += v->data[i];
  free(v);
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, g[4] = {0};
  __parad_autodiff((void *)f, x, g, parad_const, 4);
  return (int)g[0];
}
