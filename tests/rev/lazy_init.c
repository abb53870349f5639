// Lazily initialised state: the first call makes a helper structure with a function that is not inlined
// (if (p->aux == NULL) p->aux = make_aux(n);) and stores it into the active structure p; later calls find
// it there. make_aux returns an index table (no floating-point data) and make_weights a table of constant
// doubles: either way the pointer stored into active memory needs a shadow, which the helper now returns as
// the same code inlined would (a shadow block with zero tangents / adjoints); once refused with "storing
// this pointer into active memory needs a shadow". The gradient is taken twice (the second time the
// structure exists: its shadow from the first call is still in dp), then forward tangents.
// f(x) = sum_i w_i x_i x_{n-1-i} with w_i = 1 + 0.5 i; analytic df/dx_k = (w_k + w_{n-1-k}) x_{n-1-k}
// (tolerance 1e-12), forward tangents along every unit direction (1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef struct {
  int n;
  int *mirror;
} Aux;

typedef struct {
  double *x;
  Aux *aux;
  double *w;
} Problem;

__attribute__((noinline)) static Aux *make_aux(int n) {
  Aux *a = malloc(sizeof *a);
  a->n = n;
  a->mirror = malloc(n * sizeof *a->mirror);
  for (int i = 0; i < n; i++) a->mirror[i] = n - 1 - i;
  return a;
}

__attribute__((noinline)) static double *make_weights(int n) {
  double *w = malloc(n * sizeof *w);
  for (int i = 0; i < n; i++) w[i] = 1 + 0.5 * i;
  return w;
}

__attribute__((noinline)) static double f(Problem *p, int n) {
  if (p->aux == NULL) p->aux = make_aux(n);
  if (p->w == NULL) p->w = make_weights(n);
  double s = 0;
  for (int i = 0; i < p->aux->n; i++) s += p->w[i] * p->x[i] * p->x[p->aux->mirror[i]];
  return s;
}

enum { N = 9 };

int main(void) {
  double x[N], dx[N], e[N];
  for (int i = 0; i < N; i++) x[i] = 0.4 * i - 1.1;
  Problem p = {x, NULL, NULL}, dp = {dx, NULL, NULL};
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < N; i++) dx[i] = 0;
    __parad_autodiff((void *)f, &p, &dp, N);
    for (int k = 0; k < N; k++) CHECK_CLOSE(dx[k], (2 + 0.5 * (N - 1)) * x[N - 1 - k], 1e-12);
  }
  Problem q = {x, NULL, NULL}, tq = {e, NULL, NULL};
  for (int k = 0; k < N; k++) {
    for (int i = 0; i < N; i++) e[i] = i == k;
    CHECK_CLOSE(__parad_fwddiff((void *)f, &q, &tq, N), (2 + 0.5 * (N - 1)) * x[N - 1 - k], 1e-12);
  }
  return check_done();
}
