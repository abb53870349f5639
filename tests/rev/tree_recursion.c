// Recursion over an implicit binary tree stored in an array (node i has children 2i+1 and 2i+2), in
// reverse mode: each node combines its value with its children's results, v_i tanh(l) + exp(-r^2) + v_i^2,
// with missing children as a base case; a tape record per call, popped in reverse call order. Tree sizes
// with a full and a partial last level. The gradient against a
// hand-written recursive adjoint (reverse mode by hand, tolerance 1e-12), against central finite
// differences for a few entries (h = 1e-6, tolerance 1e-7), and against the forward tangent along every
// unit direction (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double eval(const double *v, int n, int i) {
  if (i >= n) return 0.5;
  double l = eval(v, n, 2 * i + 1), r = eval(v, n, 2 * i + 2);
  return v[i] * tanh(l) + exp(-r * r) + v[i] * v[i];
}

/* by hand: the adjoint dout of node i's result flows to v[i] and to the children */
static void eval_adj(const double *v, int n, int i, double dout, double *dv) {
  if (i >= n) return;
  double l = eval(v, n, 2 * i + 1), r = eval(v, n, 2 * i + 2), t = tanh(l);
  dv[i] += dout * (t + 2 * v[i]);
  eval_adj(v, n, 2 * i + 1, dout * v[i] * (1 - t * t), dv);
  eval_adj(v, n, 2 * i + 2, dout * -2 * r * exp(-r * r), dv);
}

__attribute__((noinline)) static double tree(const double *v, int n) { return eval(v, n, 0); }

typedef struct { const double *v0; int n, k; } Ctx;

static double along(void *p, double t) {
  Ctx *c = p;
  double v[40];
  for (int i = 0; i < c->n; i++) v[i] = c->v0[i] + (i == c->k) * t;
  return tree(v, c->n);
}

int main(void) {
  int sizes[] = {1, 2, 7, 12, 31};
  for (int s = 0; s < 5; s++) {
    int n = sizes[s];
    double v[40], dv[40] = {0}, want[40] = {0}, e[40];
    for (int i = 0; i < n; i++) v[i] = sin(1.1 * i) * 0.8;
    __parad_autodiff((void *)tree, v, dv, parad_const, n);
    eval_adj(v, n, 0, 1.0, want);
    for (int k = 0; k < n; k++) {
      CHECK_CLOSE(dv[k], want[k], 1e-12);
      for (int i = 0; i < n; i++) e[i] = i == k;
      CHECK_CLOSE(dv[k], __parad_fwddiff((void *)tree, v, e, parad_const, n), 1e-12);
      if (k % 4 == 0) {
        Ctx c = {v, n, k};
        CHECK_CLOSE(dv[k], fd_central(along, &c, 0, 1e-6), 1e-7);
      }
    }
  }
  return check_done();
}
