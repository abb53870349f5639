// Recursion over an implicit binary tree stored in an array (node i has children 2i+1 and 2i+2): each
// node combines its value with its children's results nonlinearly, v_i * tanh(l) + exp(-r^2) + v_i^2,
// with missing children (index >= n) as a base case. Tree sizes that leave the last level full or
// partial. Each basis tangent is checked against a hand-written recursive tangent (forward-mode by hand,
// tolerance 1e-12), and a general direction against central finite differences (h = 1e-6,
// tolerance 1e-7).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

static double eval(const double *v, int n, int i) {
  if (i >= n) return 0.5;
  double l = eval(v, n, 2 * i + 1), r = eval(v, n, 2 * i + 2);
  return v[i] * tanh(l) + exp(-r * r) + v[i] * v[i];
}

/* the same recursion with a hand-written tangent */
static double eval_t(const double *v, const double *dv, int n, int i, double *dout) {
  if (i >= n) {
    *dout = 0;
    return 0.5;
  }
  double dl, dr;
  double l = eval_t(v, dv, n, 2 * i + 1, &dl), r = eval_t(v, dv, n, 2 * i + 2, &dr);
  double t = tanh(l);
  *dout = dv[i] * t + v[i] * (1 - t * t) * dl - 2 * r * dr * exp(-r * r) + 2 * v[i] * dv[i];
  return v[i] * t + exp(-r * r) + v[i] * v[i];
}

__attribute__((noinline)) static double tree(const double *v, int n) { return eval(v, n, 0); }

typedef struct { const double *dir; int n; } Ctx;

static double along(void *p, double t) {
  Ctx *c = p;
  double v[40];
  for (int i = 0; i < c->n; i++) v[i] = sin(1.1 * i) * 0.8 + t * c->dir[i];
  return tree(v, c->n);
}

int main(void) {
  int sizes[] = {1, 2, 7, 12, 31};
  for (int s = 0; s < 5; s++) {
    int n = sizes[s];
    double v[40], dv[40];
    for (int i = 0; i < n; i++) v[i] = sin(1.1 * i) * 0.8;
    for (int k = 0; k < n; k += 3) {
      for (int i = 0; i < n; i++) dv[i] = i == k;
      double want;
      eval_t(v, dv, n, 0, &want);
      CHECK_CLOSE(__parad_fwddiff((void *)tree, v, dv, parad_const, n), want, 1e-12);
    }
    for (int i = 0; i < n; i++) dv[i] = cos(0.3 * i * i);
    Ctx c = {dv, n};
    CHECK_CLOSE(__parad_fwddiff((void *)tree, v, dv, parad_const, n), fd_central(along, &c, 0, 1e-6), 1e-7);
  }
  return check_done();
}
