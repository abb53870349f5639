// Copies into and out of the array part of a block that also holds integers and pointers: a flexible array
// member after a header (struct { int n; int tag; double *scale; double data[]; }), filled with memcpy,
// shifted with memmove, copied out with memcpy. At -O2 the block's addresses are bytes (getelementptr i8),
// no struct type tells the copy's kind, and the whole block mixes kinds: what the copy moves is what the
// function's accesses within the copied bytes are (doubles), the header's integers and pointer lying at
// constant offsets before them. Once refused ("cannot tell what this copy moves (mixed data)").
// f(x) = sum_i c_i x_i^2 + sum_i d_i, d the second copy as the shift left it (its first SHIFT elements
// overwritten by x's last: d = x_{N-SHIFT}..x_{N-1}, x_SHIFT..x_{N-1}); analytic gradient (tolerance 1e-12), forward tangents
// along every unit direction (1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 12, SHIFT = 3 };

typedef struct {
  int n, tag;
  double *scale;
  double data[];
} Block;

static double weights[N];

__attribute__((noinline)) static double f(const double *x) {
  Block *b = malloc(sizeof *b + 2 * N * sizeof(double));
  b->n = N, b->tag = 7, b->scale = weights;
  memcpy(b->data, x, N * sizeof(double));
  memcpy(b->data + N, x, N * sizeof(double));
  memmove(b->data + SHIFT, b->data, N * sizeof(double)); /* overlapping: data[SHIFT + i] = x[i] */
  double y[N];
  memcpy(y, b->data + SHIFT, b->n * sizeof(double));
  double s = 0;
  for (int i = 0; i < b->n; i++) s += b->scale[i] * y[i] * y[i] + b->data[N + i] * (b->tag - 6);
  free(b);
  return s;
}

int main(void) {
  double x[N], g[N] = {0}, v[N];
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.1 * i, weights[i] = 1 + 0.25 * i;
  __parad_autodiff((void *)f, x, g);
  for (int j = 0; j < N; j++) {
    double want = 2 * weights[j] * x[j] + (j >= SHIFT) + (j >= N - SHIFT);
    CHECK_CLOSE(g[j], want, 1e-12);
    for (int i = 0; i < N; i++) v[i] = i == j;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), want, 1e-12);
  }
  return check_done();
}
