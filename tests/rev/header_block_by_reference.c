// A vector with a flexible array member (int n, cap; double data[]) that the caller passes by reference
// with a shadow, grown by realloc inside the derivative. The adjoints of its old contents belong in the
// caller's shadow, which the derivative replaces by the grown block's: at -O0 (the block moved by the
// struct's layout) they were lost there (zeros, no message: the runtime never marked the layout's move
// reversed, and did not hand the old shadow's adjoints to the new one); at -O2 the realloc was refused
// (its kind not told; it moves as bytes now).
// f = sum of the squares of the vector's entries after pushing x_i^2: df/dx_i = 4 x_i^3, and the old
// entries' adjoints 2 d_j. Against those (1e-12), at -O2 and -O0, under valgrind (no invalid access, no
// leak of the shadows).
// RUN: %parad-cc %cflags %s -o %t && valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite %t0
#include <stdlib.h>
#include "parad.h"
#include "check.h"

enum { N = 5 };

typedef struct {
  int n, cap;
  double data[];
} Flex;

__attribute__((noinline)) static Flex *push(Flex *v, double x) {
  if (v->n == v->cap) {
    v->cap *= 2;
    v = realloc(v, sizeof *v + v->cap * sizeof(double));
  }
  v->data[v->n++] = x;
  return v;
}

__attribute__((noinline)) static double f(Flex **pv, const double *x, int n) {
  for (int i = 0; i < n; i++) *pv = push(*pv, x[i] * x[i]);
  double s = 0;
  for (int i = 0; i < (*pv)->n; i++) s += (*pv)->data[i] * (*pv)->data[i];
  return s;
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.7, 2.1, -0.4}, dx[N] = {0};
  Flex *v = malloc(sizeof *v + 2 * sizeof(double)), *dv = calloc(1, sizeof *v + 2 * sizeof(double));
  v->n = 2, v->cap = 2, v->data[0] = 1.5, v->data[1] = -0.5;
  __parad_autodiff((void *)f, &v, &dv, x, dx, N);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], 4 * x[i] * x[i] * x[i], 1e-12);
  CHECK_CLOSE(dv->data[0], 3.0, 1e-12);
  CHECK_CLOSE(dv->data[1], -1.0, 1e-12);
  free(v);
  free(dv);
  return check_done();
}
