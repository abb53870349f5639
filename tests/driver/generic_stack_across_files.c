// The generic stack of rev/generic_stack_two_kinds.c as a library in a file of its own
// (Inputs/generic_stack/stack.c), used here for doubles, records of doubles and pointers: the link splits
// its push and pop per kind, as within one file. Against central finite differences (1e-6) and the tangent
// against the gradient (1e-12), file by file at -O2, and at -O0 in one command.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc %cflags -I%S/Inputs/generic_stack -c %s -o %t/main.o
// RUN: %parad-cc %cflags -c %S/Inputs/generic_stack/stack.c -o %t/stack.o
// RUN: %parad-cc %t/main.o %t/stack.o -o %t/prog -lm && %t/prog
// RUN: %parad-cc -O0 -I%S/../include -I%S/Inputs/generic_stack %s %S/Inputs/generic_stack/stack.c -o %t/prog0 -lm && %t/prog0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parad.h"
#include "stack.h"

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
