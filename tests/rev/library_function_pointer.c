// A container whose destructor is a function pointer the caller passes: `free` itself, or a wrapper of
// the program's. The C library's free has no derivative Parad registered (it differentiates free where
// the program calls it by name), so the run stops at the call, as for any function without a derivative,
// but the message now says what to do (pass a wrapper compiled by parad-cc; it said "compile it with
// parad-cc", which cannot be done for free). With the wrapper, f = sum_i x_i^2 has gradient 2 x (1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t wrapped
// RUN: not %t free 2>&1 | FileCheck %s
// CHECK: parad: a derivative reached a call through a function pointer to '{{.*}}free', a function of the C library, which Parad differentiates where the program calls it by name {{.*}}pass a function of the program that calls it instead
#include <stdlib.h>
#include <string.h>
#include "parad.h"
#include "check.h"

enum { N = 3 };

typedef struct {
  double **items;
  int n;
  void (*dtor)(void *);
} Bag;

static void bag_clear(Bag *b) {
  for (int i = 0; i < b->n; i++) b->dtor(b->items[i]);
  free(b->items);
}

static double f(const double *x, int n, void (*dtor)(void *)) {
  Bag b = {malloc(n * sizeof(double *)), n, dtor};
  for (int i = 0; i < n; i++) {
    b.items[i] = malloc(sizeof(double));
    *b.items[i] = x[i] * x[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += *b.items[i];
  bag_clear(&b);
  return s;
}

static void release(void *p) { free(p); }

int main(int argc, char **argv) {
  double x[N] = {0.3, -1.2, 0.7}, dx[N] = {0};
  __parad_autodiff((void *)f, x, dx, N, parad_const, argc > 1 && !strcmp(argv[1], "free") ? free : release);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], 2 * x[i], 1e-12);
  return check_done();
}
