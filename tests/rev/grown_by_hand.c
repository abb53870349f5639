// A growable array as C programs write it (malloc a bigger block, memcpy the elements, free the old one),
// passed in by the caller and grown inside the differentiated function. The caller's shadow struct then
// leads to the new shadow block, which must hold the adjoints of the old contents; they used to be freed
// with the caller's old shadow block (zeros, no message). Twice: once past the capacity, and five pushes
// that move the elements through two blocks the derivative allocated and freed again; and five pushes
// among steps that each allocate 40 blocks, freed oldest first (more than the runtime keeps as born last:
// the others asked of its set of born blocks, the caller's block among them). A third shape
// copies the caller's block into a scratch block it frees before returning: nothing goes there.
//   E = sum_i (i+1) d_i^2 over the grown array (pushed values y, y^2, ...).
// Gradient against the analytic one (1e-12) and central finite differences (h = 1e-6, 1e-6), at -O2 and
// -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include <string.h>
#include "parad.h"
#include "check.h"

typedef struct {
  double *data;
  long n, cap;
} Buf;

static void push(Buf *b, double x) {
  if (b->n == b->cap) {
    long cap = 2 * b->cap;
    double *d = malloc(cap * sizeof *d);
    memcpy(d, b->data, b->n * sizeof *d);
    free(b->data);
    b->data = d, b->cap = cap;
  }
  b->data[b->n++] = x;
}

static double energy(const Buf *b) {
  double s = 0;
  for (long i = 0; i < b->n; i++) s += (i + 1) * b->data[i] * b->data[i];
  return s;
}

static double push_once(Buf *b, double y) {
  push(b, y);
  return energy(b);
}

static double push_five(Buf *b, double y) {
  double p = y;
  for (int k = 0; k < 5; k++, p *= y) push(b, p);
  return energy(b);
}

/* five steps, each allocating more blocks than the runtime keeps as born last (40; it keeps 32), pushing
 * while they live (the caller's block is freed among them), then freeing them oldest first */
static double many_blocks(Buf *b, double y) {
  double p = y;
  for (int k = 0; k < 5; k++, p *= y) {
    double *t[40], s = 0;
    for (int j = 0; j < 40; j++) t[j] = malloc(sizeof(double)), t[j][0] = p * (j + 1);
    for (int j = 0; j < 40; j++) s += t[j][0];
    push(b, s / 820); /* p: the sum of 1..40 is 820 */
    for (int j = 0; j < 40; j++) free(t[j]);
  }
  return energy(b);
}

static double scratch_copy(Buf *b, double y) {
  double *t = malloc(b->n * sizeof *t);
  memcpy(t, b->data, b->n * sizeof *t);
  double s = 0;
  for (long i = 0; i < b->n; i++) s += t[i] * y;
  free(t);
  return s + energy(b);
}

static Buf make(const double *v, long n) {
  Buf b = {malloc(n * sizeof(double)), n, n};
  memcpy(b.data, v, n * sizeof(double));
  return b;
}

static double at(double (*f)(Buf *, double), const double *v, double y) {
  Buf b = make(v, 3);
  double e = f(&b, y);
  free(b.data);
  return e;
}

static void check(double (*f)(Buf *, double), double y, int scratch) {
  const double v[3] = {1.0, -2.0, 0.5};
  Buf b = make(v, 3), db = {calloc(3, sizeof(double)), 3, 3};
  __parad_autodiff((void *)f, &b, &db, parad_const, y);
  for (int i = 0; i < 3; i++) {
    CHECK_CLOSE(db.data[i], 2 * (i + 1) * v[i] + (scratch ? y : 0), 1e-12);
    double p[3] = {v[0], v[1], v[2]}, m[3] = {v[0], v[1], v[2]}, h = 1e-6;
    p[i] += h, m[i] -= h;
    CHECK_CLOSE((at(f, p, y) - at(f, m, y)) / (2 * h), db.data[i], 1e-6);
  }
  for (long i = 3; i < b.n; i++) CHECK_CLOSE(db.data[i], 0.0, 0); /* the pushed values' adjoints went to y */
  free(b.data);
  free(db.data);
}

int main(void) {
  check(push_once, 0.7, 0);
  check(push_five, 0.7, 0);
  check(many_blocks, 0.7, 0);
  check(scratch_copy, 0.7, 1);
  return check_done();
}
