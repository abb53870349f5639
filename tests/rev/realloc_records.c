// An array of records mixing kinds (an int, three doubles, a float, a pointer to more doubles) grown with
// realloc, one record at a time (`grow_by_one`) and four at a time in a helper (`grow_in_chunks`), then
// copied whole with memcpy and two records swapped by struct assignment. realloc moves the records' bytes:
// reverse mode sends the doubles' adjoints back to the old block's shadow and carries the pointer's shadow
// to the new one, by the records' layout. It was refused ("cannot tell what this realloc moves (mixed
// data)").
//   record k: pos = (x_k, x_k x_{k+1}, 1/2), mass = k, ext -> (2 x_0, x_1); n records (indices mod n);
//   E = sum_k pos0 pos1 (1 + mass) + ext[k mod 2] pos2
//   dE/dx_j = 2 x_j x_{j+1} (1 + j) + x_{j-1}^2 j  (the second term for j >= 1; for j = 0: x_{n-1}^2 n),
//             plus ceil(n/2) for j = 0 and floor(n/2) / 2 for j = 1.
// Gradients against the analytic ones (1e-12); tangents along each unit direction against them (1e-12); at
// -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 7 };

typedef struct {
  int id;
  double pos[3];
  float mass;
  double *ext;
} Record;

typedef struct {
  int n;
  Record *r;
} Table;

static void grow(Table *t) { t->r = realloc(t->r, (t->n + 4) * sizeof *t->r); }

static double energy(const Table *t) {
  Record *copy = malloc(t->n * sizeof *copy);
  memcpy(copy, t->r, t->n * sizeof *copy);
  Record tmp = copy[0];
  copy[0] = copy[t->n - 1], copy[t->n - 1] = tmp;
  double e = 0;
  for (int k = 0; k < t->n; k++) e += copy[k].pos[0] * copy[k].pos[1] * (1 + copy[k].mass) + copy[k].ext[copy[k].id % 2] * copy[k].pos[2];
  free(copy);
  return e;
}

static Record record(const double *x, int k, double *ext) {
  Record a = {k, {x[k], x[k] * x[(k + 1) % N], 0.5}, (float)k, ext};
  return a;
}

__attribute__((noinline)) static double grow_by_one(const double *x) {
  Table t = {0, NULL};
  double *ext = malloc(2 * sizeof *ext);
  ext[0] = 2 * x[0], ext[1] = x[1];
  for (int k = 0; k < N; k++) {
    t.r = realloc(t.r, (t.n + 1) * sizeof *t.r);
    t.r[t.n++] = record(x, k, ext);
  }
  double e = energy(&t);
  free(t.r), free(ext);
  return e;
}

__attribute__((noinline)) static double grow_in_chunks(const double *x) {
  Table t = {0, NULL};
  double *ext = malloc(2 * sizeof *ext);
  ext[0] = 2 * x[0], ext[1] = x[1];
  for (int k = 0; k < N; k++) {
    if (k % 4 == 0) grow(&t);
    Record a = record(x, k, ext);
    memcpy(&t.r[t.n++], &a, sizeof a);
  }
  double e = energy(&t);
  free(t.r), free(ext);
  return e;
}

#define CHECK(f)                                                               \
  do {                                                                         \
    double g[N] = {0}, v[N];                                                   \
    __parad_autodiff((void *)f, x, g);                                         \
    for (int j = 0; j < N; j++) {                                              \
      CHECK_CLOSE(g[j], want[j], 1e-12);                                       \
      for (int i = 0; i < N; i++) v[i] = i == j;                               \
      CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), want[j], 1e-12);           \
    }                                                                          \
  } while (0)

int main(void) {
  double x[N], want[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.1 * i;
  for (int j = 0; j < N; j++) {
    int before = (j + N - 1) % N;
    want[j] = 2 * x[j] * x[(j + 1) % N] * (1 + j) + x[before] * x[before] * (1 + before);
  }
  want[0] += (N + 1) / 2, want[1] += (N / 2) * 0.5;
  CHECK(grow_by_one);
  CHECK(grow_in_chunks);
  return check_done();
}
