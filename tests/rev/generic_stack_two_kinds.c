// A generic stack of elements of a size given at run time (push and pop copy an element with memcpy), used
// by one program for doubles, for records of two doubles and for pointers to doubles, as C libraries of
// containers are used. Each call alone copies one kind, but the helpers as a whole copy all of them, and
// reverse mode refused the copies at -O2 ("cannot tell what this copy moves"). The helpers are now
// copied once per kind their callers give them. Checked against central finite differences (1e-6) and
// the tangent against the gradient (1e-12), with the helpers kept as calls at -O2, and at -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t -lm && %t
// RUN: %parad-cc -O3 -march=native -I%S/../include %s -o %t -lm && %t
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parad.h"

#ifdef STACK_LIBRARY /* the same stack as a library of its own: driver/generic_stack_across_files.c */
#include "stack.h"
#else
typedef struct {
  char *data;
  size_t size, len, cap;
} Stack;

__attribute__((noinline)) static void push(Stack *s, const void *e) {
  if (s->len == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 4;
    s->data = realloc(s->data, s->cap * s->size);
  }
  memcpy(s->data + s->len++ * s->size, e, s->size);
}

__attribute__((noinline)) static void pop(Stack *s, void *e) { memcpy(e, s->data + --s->len * s->size, s->size); }
#endif

typedef struct {
  double p[2];
} Pair;

static double f(const double *x, int n) {
  Stack values = {0, sizeof(double), 0, 0}, pairs = {0, sizeof(Pair), 0, 0}, refs = {0, sizeof(double *), 0, 0};
  double *scaled = malloc(n * sizeof *scaled);
  for (int i = 0; i < n; i++) {
    scaled[i] = 2 * x[i];
    const double *ref = &scaled[i];
    push(&refs, &ref);
    push(&values, &x[i]);
    Pair pair = {{x[i], x[i] * x[i]}};
    push(&pairs, &pair);
  }
  double acc = 0;
  while (values.len) {
    double v, *ref;
    Pair pair;
    pop(&values, &v);
    pop(&pairs, &pair);
    pop(&refs, &ref);
    acc = 0.5 * acc + v * pair.p[1] + sin(pair.p[0]) + *ref * v;
  }
  free(scaled);
  free(values.data);
  free(pairs.data);
  free(refs.data);
  return acc;
}

int main(void) {
  enum { N = 7 };
  double x[N], dx[N] = {0}, v[N], t = 0, h = 1e-6;
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.2 * i;
  __parad_autodiff((void *)f, x, dx, N);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double o = x[i];
    x[i] = o + h;
    double fp = f(x, N);
    x[i] = o - h;
    double fm = f(x, N);
    x[i] = o;
    double fd = (fp - fm) / (2 * h);
    if (fabs(fd - dx[i]) > 1e-6 * (1 + fabs(fd))) printf("dx[%d] = %.12g, finite differences %.12g\n", i, dx[i], fd), bad = 1;
    v[i] = cos(i);
    t += v[i] * dx[i];
  }
  double tangent = __parad_fwddiff((void *)f, x, v, N);
  if (fabs(tangent - t) > 1e-12 * (1 + fabs(t))) printf("tangent %.15g, gradient . v %.15g\n", tangent, t), bad = 1;
  printf(bad ? "wrong\n" : "ok\n");
  return bad;
}
