// Arrays of structs that mix doubles, floats, ints and pointers, moved with memcpy and memmove, in
// reverse mode: an element-wise copy through a pointer field (whose shadow must follow the copy), an
// overlapping memmove that shifts the array by one element, and a copy of the tail of one struct and
// the head of the next (a block that starts in the middle of the struct). The floats' adjoints must go
// back through each move and the other bytes must get none. Analytic gradient and forward tangents
// along every unit direction (tolerance 1e-6: the float field is computed in single precision).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  double w;
  int id;
  double *src; /* points into the input */
  float f;
} Item;

enum { N = 4, M = 2 * N };

__attribute__((noinline)) static double moves(const double *x, int n) {
  Item a[N + 1], b[N + 1];
  for (int i = 0; i < n; i++) {
    a[i].w = x[i] * x[i];
    a[i].id = i;
    a[i].src = (double *)&x[n + i];
    a[i].f = (float)(0.5 * x[i]);
  }
  memcpy(b, a, n * sizeof *a);                   /* a copy with the pointers' shadows */
  memmove(&b[1], &b[0], (n - 1) * sizeof *b);     /* overlapping: every element moves up by one */
  /* from the middle of one struct into the next */
  memcpy((char *)&a[n - 1] + offsetof(Item, src), (char *)&b[0] + offsetof(Item, src), sizeof(Item));
  double s = 0;
  for (int i = 0; i < n; i++) s += b[i].w * *b[i].src + sin(b[i].f) * (b[i].id + 1);
  s += a[n - 1].f * a[n - 1].f * 3 + a[n].w * 2 + *a[n - 1].src; /* b[0]'s tail, b[1]'s head */
  return s;
}

int main(void) {
  double x[M], dx[M] = {0}, e[M], g[M] = {0};
  for (int i = 0; i < M; i++) x[i] = 0.3 * i - 0.7 + 0.05 * i * i;
  __parad_autodiff((void *)moves, x, dx, parad_const, N);
  /* b holds a[0], a[0], a[1], ..., a[N-2]; the tail copy brings a[0].src, a[0].f and a[0].w */
  for (int i = 0; i < N; i++) {
    int j = i == 0 ? 0 : i - 1;
    float f = (float)(0.5 * x[j]);
    g[j] += 2 * x[j] * x[N + j] + cos(f) * 0.5 * (j + 1);
    g[N + j] += x[j] * x[j];
  }
  g[0] += 6 * (float)(0.5 * x[0]) * 0.5 + 4 * x[0];
  g[N] += 1;
  for (int k = 0; k < M; k++) {
    CHECK_CLOSE(dx[k], g[k], 1e-6);
    for (int i = 0; i < M; i++) e[i] = i == k;
    CHECK_CLOSE(dx[k], __parad_fwddiff((void *)moves, x, e, parad_const, N), 1e-6);
  }
  return check_done();
}
