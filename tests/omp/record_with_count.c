// A record of parameters every iteration of a parallel loop reads whole, with integer fields beside its
// floats: a kinematic chain `struct { int n; Link l[6]; }` whose links hold a joint type tag, walked
// with `i < c->n` (a DH-calibration cost over many poses). The record's reads mixed integers with
// doubles, so no thread could keep its adjoints in a buffer of its own, and every adjoint update was
// atomic at 2 threads (the gradient slower at 2 threads than at 1; with the bound a constant, the
// unrolled reads were summed in registers). A count or tag read beside the floats takes no adjoint now
// (reverse/rev_shared.c): under 5% atomic at 2 and 4 threads (checked, built with PARAD_COUNT_UPDATES).
//   J(c) = sum_k (|tip(c, q_k)|^2 - t_k)^2 / M, the tip of a planar chain with twisted links
// Gradient against central differences (h = 1e-6, tolerance 1e-6) and forward tangents (1e-10) at 1
// to 4 threads, and at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && %t 1 && %t 2 && %t 3 && %t 4
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t2 -lm && %t2 2 && %t2 4
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && %t0 3
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { L = 6, M = 300, NP = 4 * L };
typedef struct {
  double a, alpha, d, theta0;
  int type; /* 0: revolute, 1: prismatic */
} Link;
typedef struct {
  int n;
  Link l[L];
} Chain;

static double tip(const Chain *c, const double *q) {
  double x = 0, y = 0, th = 0;
  for (int i = 0; i < c->n; i++) {
    const Link *k = &c->l[i];
    th += k->theta0 + (k->type == 0 ? q[i] : 0);
    double r = k->a * cos(k->alpha) + k->d + (k->type == 1 ? q[i] : 0);
    x += r * cos(th);
    y += r * sin(th);
  }
  return x * x + y * y;
}

__attribute__((noinline)) static double cost(const Chain *c, const double *qs, const double *t) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int k = 0; k < M; k++) {
    double e = tip(c, qs + L * k) - t[k];
    s += e * e;
  }
  return s / M;
}

static double qs[L * M], targets[M];

static void unpack(const double *x, Chain *c) {
  c->n = L;
  for (int i = 0; i < L; i++) c->l[i] = (Link){x[4 * i], x[4 * i + 1], x[4 * i + 2], x[4 * i + 3], i == 2};
}

static double cost_of(const double *x) {
  Chain c;
  unpack(x, &c);
  return cost(&c, qs, targets);
}

int main(int argc, char **argv) {
  omp_set_num_threads(argc > 1 ? atoi(argv[1]) : 2);
  for (int i = 0; i < L * M; i++) qs[i] = 0.4 * sin(1.7 * i);
  for (int k = 0; k < M; k++) targets[k] = 1.5 + 0.1 * cos(k);
  double x[NP];
  for (int i = 0; i < L; i++) x[4 * i] = 0.3 + 0.01 * i, x[4 * i + 1] = 0.1 * i, x[4 * i + 2] = 0.05, x[4 * i + 3] = 0.02 * i;
  Chain c, dc, vc;
  unpack(x, &c);
  for (int pass = 0; pass < 2; pass++) {
    unsigned long long plain0, atomic0, plain1, atomic1;
    parad_adjoint_update_counts(&plain0, &atomic0);
    unpack((double[NP]){0}, &dc);
    __parad_autodiff((void *)cost, &c, &dc, parad_const, qs, parad_const, targets);
    parad_adjoint_update_counts(&plain1, &atomic1);
    double dot = 0, v[NP];
    for (int i = 0; i < NP; i++) v[i] = cos(0.7 * i);
    unpack(v, &vc);
    double t = __parad_fwddiff((void *)cost, &c, &vc, parad_const, qs, parad_const, targets);
    for (int i = 0; i < L; i++) {
      const double g[4] = {dc.l[i].a, dc.l[i].alpha, dc.l[i].d, dc.l[i].theta0};
      for (int j = 0; j < 4; j++) {
        dot += g[j] * v[4 * i + j];
        if (pass == 0) CHECK_CLOSE(g[j], fd_component(cost_of, x, NP, 4 * i + j, 1e-6), 1e-6);
      }
    }
    CHECK_CLOSE(t, dot, 1e-10);
#ifdef COUNTED
    if (pass == 1) { /* the second gradient: the first one's counts include the team's start */
      printf("adjoint updates: %llu plain, %llu atomic\n", plain1 - plain0, atomic1 - atomic0);
      CHECK_CLOSE(atomic1 - atomic0 < (plain1 - plain0) / 20, 1, 0);
    }
#endif
  }
  return check_done();
}
