// At -O0, where the optimised copies' derivatives are refused (here: a solution record of ints and
// pointers from calloc, its counters' arithmetic untyped in the copies: -O0 code has no type tags), the
// request is differentiated as compiled. With -v the refusal was printed as ten "error:" lines of a build
// that succeeded; they are notes now ("note: (in the copies) ..."), and nothing at all without -v. The
// gradient of a pharmacokinetic fit through an adaptive Bogacki-Shampine solver with dense output, against
// central differences (h = 1e-6, relative 1e-6), and at -O2 too.
// RUN: %parad-cc -O0 -v -I%S/../include %s -o %t0 -lm 2> %t0.err && %t0
// RUN: grep -q "note: (in the copies)" %t0.err && not grep -q "error:" %t0.err
// RUN: %parad-cc -O0 -I%S/../include %s -o %t1 -lm 2> %t1.err && test ! -s %t1.err
// RUN: %parad-cc %cflags %s -o %t2 -lm && %t2
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);

typedef void (*ode_rhs)(double t, const double *y, double *dy, void *params);
typedef struct { int n, len, cap; double *t, *y, *f; } ode_sol;
typedef struct { double ka, CL, V, Q, Vp; double rate; double tinf0, tinf1; } pk_params;
void pk2_rhs(double t, const double *y, double *dy, void *params) {
  const pk_params *p = params;
  double inf = (t >= p->tinf0 && t < p->tinf1) ? p->rate : 0.0;
  dy[0] = -p->ka * y[0];
  dy[1] = p->ka * y[0] - (p->CL + p->Q) / p->V * y[1] + p->Q / p->Vp * y[2] + inf;
  dy[2] = p->Q / p->V * y[1] - p->Q / p->Vp * y[2];
}

static void push(ode_sol *s, double t, const double *y, const double *f) {
  if (s->len == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 16;
    s->t = realloc(s->t, s->cap * sizeof(double));
    s->y = realloc(s->y, s->cap * s->n * sizeof(double));
    s->f = realloc(s->f, s->cap * s->n * sizeof(double));
  }
  s->t[s->len] = t;
  memcpy(s->y + s->len * s->n, y, s->n * sizeof(double));
  memcpy(s->f + s->len * s->n, f, s->n * sizeof(double));
  s->len++;
}

/* Bogacki-Shampine 3(2) with FSAL; stores every accepted step for dense output */
ode_sol *bs23_solve(ode_rhs f, void *p, int n, double t0, double t1, const double *y0, double rtol, double atol) {
  ode_sol *s = calloc(1, sizeof *s);
  s->n = n;
  double *y = malloc(n * sizeof(double)), *k1 = malloc(n * sizeof(double)), *k2 = malloc(n * sizeof(double));
  double *k3 = malloc(n * sizeof(double)), *k4 = malloc(n * sizeof(double)), *yt = malloc(n * sizeof(double));
  double *yn = malloc(n * sizeof(double));
  memcpy(y, y0, n * sizeof(double));
  double t = t0, h = 0.01 * (t1 - t0);
  f(t, y, k1, p);
  push(s, t, y, k1);
  while (t < t1) {
    if (t + h > t1) h = t1 - t;
    for (int i = 0; i < n; i++) yt[i] = y[i] + 0.5 * h * k1[i];
    f(t + 0.5 * h, yt, k2, p);
    for (int i = 0; i < n; i++) yt[i] = y[i] + 0.75 * h * k2[i];
    f(t + 0.75 * h, yt, k3, p);
    for (int i = 0; i < n; i++) yn[i] = y[i] + h * (2.0 / 9 * k1[i] + 1.0 / 3 * k2[i] + 4.0 / 9 * k3[i]);
    f(t + h, yn, k4, p);
    double err = 0;
    for (int i = 0; i < n; i++) {
      double e = h * (-5.0 / 72 * k1[i] + 1.0 / 12 * k2[i] + 1.0 / 9 * k3[i] - 1.0 / 8 * k4[i]);
      double sc = atol + rtol * fmax(fabs(y[i]), fabs(yn[i]));
      err = fmax(err, fabs(e) / sc);
    }
    if (err <= 1) {
      t += h;
      memcpy(y, yn, n * sizeof(double));
      memcpy(k1, k4, n * sizeof(double));
      push(s, t, y, k1);
    }
    h *= fmin(4.0, fmax(0.25, 0.9 * cbrt(1.0 / fmax(err, 1e-10))));
  }
  free(yn); free(yt); free(k4); free(k3); free(k2); free(k1); free(y);
  return s;
}

/* Hermite interpolation of component i at time t; binary search for the interval */
double sol_eval(const ode_sol *s, double t, int i) {
  int lo = 0, hi = s->len - 1;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (s->t[mid] <= t) lo = mid; else hi = mid;
  }
  double h = s->t[hi] - s->t[lo], th = (t - s->t[lo]) / h;
  int n = s->n;
  double h00 = (1 + 2 * th) * (1 - th) * (1 - th), h10 = th * (1 - th) * (1 - th);
  double h01 = th * th * (3 - 2 * th), h11 = th * th * (th - 1);
  return h00 * s->y[lo * n + i] + h10 * h * s->f[lo * n + i] + h01 * s->y[hi * n + i] + h11 * h * s->f[hi * n + i];
}

void sol_free(ode_sol *s) { free(s->t); free(s->y); free(s->f); free(s); }
#define NOBS 14
typedef struct { double tobs[NOBS], cobs[NOBS]; double dose; } pkd;
double pk_dense_loss(const double *theta, const pkd *d) {
  pk_params p = {exp(theta[0]), exp(theta[1]), exp(theta[2]), exp(theta[3]), exp(theta[4]), 0, 0, 0};
  double y0[3] = {d->dose, 0, 0};
  ode_sol *s = bs23_solve(pk2_rhs, &p, 3, 0.0, 48.0, y0, 1e-7, 1e-9);
  double l = 0;
  for (int j = 0; j < NOBS; j++) {
    double c = sol_eval(s, d->tobs[j], 1) / p.V;
    double r = log(c) - log(d->cobs[j]);
    l += r * r;
  }
  sol_free(s);
  return l;
}
static double loss_along(void *ctx, double v) {
  double *th = ((double **)ctx)[0], keep = th[0];
  th[0] = v;
  double l = pk_dense_loss(th, ((const pkd **)ctx)[1]);
  th[0] = keep;
  return l;
}

int main(void) {
  pkd d;
  d.dose = 100;
  double th[5] = {log(1.1), log(4.0), log(20.0), log(6.0), log(50.0)}, g[5] = {0};
  for (int j = 0; j < NOBS; j++) {
    d.tobs[j] = 0.25 + 3.3 * j + 0.1 * sin(j);
    d.cobs[j] = 2.0 * exp(-0.08 * d.tobs[j]) * (1 - exp(-d.tobs[j])) + 0.01;
  }
  __parad_autodiff((void *)pk_dense_loss, th, g, parad_const, &d);
  void *ctx[2] = {th, &d};
  CHECK_CLOSE(g[0], fd_central(loss_along, ctx, th[0], 1e-6), 1e-6);
  return check_done();
}
