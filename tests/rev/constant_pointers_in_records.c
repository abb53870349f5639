// Pointers passed constant beside the values they go with, put into a local record that a helper reads:
// a CSR matrix {vals, cols, rowptr, n} built from the arguments (vals duplicated, cols and rowptr
// constant), y = A x with x duplicated too; a gather record whose index array comes first; a layer whose
// activation function is chosen at run time. Storing a constant pointer into a record with derivatives
// was refused at -O1 and up ("needs a shadow for memory that has none: a parameter passed as constant");
// where the record's field is only read back for integers, or called, the shadow record holds the pointer
// itself, through which no derivative goes (a function pointer's shadow is itself anyway).
//   csr(vals, x)    = sum_r (y_r)^2, y = A x, A in CSR (3 x 4, 7 nonzeros)
//   gather(vals, x) = sum_i vals_i x[idx_i]^2, idx first in its record, the record passed on twice
//   layer(w, x)     = sum_i act(w_i x_i), act = tanh or a cube, passed constant
// Gradients with respect to vals and x against central differences (h 1e-6, 1e-7), forward mode along
// each direction against them (1e-12), at -O0 to -O3. A constant pointer to doubles in such a record,
// read as doubles, is still refused (tests/diag/constant_pointer_in_record.c).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 -lm && %t3
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { ROWS = 3, COLS = 4, NNZ = 7, NG = 5 };

typedef struct {
  double *vals;
  const int *cols, *rowptr;
  int n;
} Csr;

__attribute__((noinline)) static void multiply(const Csr *a, const double *x, double *y) {
  for (int r = 0; r < a->n; r++) {
    double s = 0;
    for (int k = a->rowptr[r]; k < a->rowptr[r + 1]; k++) s += a->vals[k] * x[a->cols[k]];
    y[r] = s;
  }
}

double csr(double *vals, double *x, const int *cols, const int *rowptr) {
  Csr a = {vals, cols, rowptr, ROWS};
  double y[ROWS], f = 0;
  multiply(&a, x, y);
  for (int r = 0; r < ROWS; r++) f += y[r] * y[r];
  return f;
}

typedef struct {
  const int *idx;
  double *w;
  int n;
} Gather;

__attribute__((noinline)) static double gather_sum(const Gather *g, const double *x) {
  double s = 0;
  for (int i = 0; i < g->n; i++) s += g->w[i] * x[g->idx[i]] * x[g->idx[i]];
  return s;
}

__attribute__((noinline)) static double gather_outer(const Gather *g, const double *x) { return 2 * gather_sum(g, x); }

double gather(double *w, double *x, const int *idx) {
  Gather g = {idx, w, NG};
  return gather_outer(&g, x) / 2;
}

typedef double (*Activation)(double);
typedef struct {
  double *w;
  int n;
  Activation act;
} Layer;

static double cube(double t) { return t * t * t; }
static double hyperbolic(double t) { return tanh(t); }

__attribute__((noinline)) static double apply(const Layer *l, const double *x) {
  double s = 0;
  for (int i = 0; i < l->n; i++) s += l->act(l->w[i] * x[i]);
  return s;
}

double layer(double *w, double *x, Activation act) {
  Layer l = {w, COLS, act};
  return apply(&l, x);
}

static const int cols[NNZ] = {0, 2, 1, 3, 0, 1, 3}, rowptr[ROWS + 1] = {0, 2, 4, 7};
static const int idx[NG] = {3, 0, 0, 2, 1};

static double csr_at(const double *v, const double *x) {
  double vv[NNZ], xx[COLS];
  for (int i = 0; i < NNZ; i++) vv[i] = v[i];
  for (int i = 0; i < COLS; i++) xx[i] = x[i];
  return csr(vv, xx, cols, rowptr);
}

static double gather_at(const double *w, const double *x) {
  double ww[NG], xx[COLS];
  for (int i = 0; i < NG; i++) ww[i] = w[i];
  for (int i = 0; i < COLS; i++) xx[i] = x[i];
  return gather(ww, xx, idx);
}

static Activation chosen;
static double layer_at(const double *w, const double *x) {
  double ww[COLS], xx[COLS];
  for (int i = 0; i < COLS; i++) ww[i] = w[i], xx[i] = x[i];
  return layer(ww, xx, chosen);
}

typedef double (*Objective)(const double *, const double *);

/* The gradient (dv, dx) and the tangents along each direction (tangent(j)) against central differences
 * of at(). */
static void check(Objective at, const double *v, int nv, const double *x, const double *dv, const double *dx,
                  double (*tangent)(int j)) {
  for (int j = 0; j < nv + COLS; j++) {
    double vp[NNZ], vm[NNZ], xp[COLS], xm[COLS];
    for (int i = 0; i < nv; i++) vp[i] = vm[i] = v[i];
    for (int i = 0; i < COLS; i++) xp[i] = xm[i] = x[i];
    double *p = j < nv ? &vp[j] : &xp[j - nv], *m = j < nv ? &vm[j] : &xm[j - nv];
    *p += 1e-6, *m -= 1e-6;
    double want = (at(vp, xp) - at(vm, xm)) / 2e-6, got = j < nv ? dv[j] : dx[j - nv];
    CHECK_CLOSE(got, want, 1e-7);
    CHECK_CLOSE(tangent(j), got, 1e-12);
  }
}

static double v[NNZ] = {0.5, -1.25, 2.0, 0.75, -0.5, 1.5, 0.25}, x[COLS] = {1.1, -0.7, 0.4, 2.2};
static double w[NG] = {0.3, -0.8, 1.2, 0.6, -1.1};

static double csr_tangent(int j) {
  double tv[NNZ] = {0}, tx[COLS] = {0};
  (j < NNZ ? tv : tx)[j < NNZ ? j : j - NNZ] = 1;
  return __parad_fwddiff((void *)csr, v, tv, x, tx, parad_const, cols, parad_const, rowptr);
}

static double gather_tangent(int j) {
  double tw[NG] = {0}, tx[COLS] = {0};
  (j < NG ? tw : tx)[j < NG ? j : j - NG] = 1;
  return __parad_fwddiff((void *)gather, w, tw, x, tx, parad_const, idx);
}

static double layer_tangent(int j) {
  double tw[COLS] = {0}, tx[COLS] = {0};
  (j < COLS ? tw : tx)[j < COLS ? j : j - COLS] = 1;
  return __parad_fwddiff((void *)layer, v, tw, x, tx, parad_const, chosen);
}

int main(int argc, char **argv) {
  (void)argv;
  double dv[NNZ] = {0}, dx[COLS] = {0}, dw[NG] = {0}, dx2[COLS] = {0};
  __parad_autodiff((void *)csr, v, dv, x, dx, parad_const, cols, parad_const, rowptr);
  check(csr_at, v, NNZ, x, dv, dx, csr_tangent);
  __parad_autodiff((void *)gather, w, dw, x, dx2, parad_const, idx);
  check(gather_at, w, NG, x, dw, dx2, gather_tangent);
  for (int k = 0; k < 2; k++) { /* the function known only at run time */
    chosen = (k + argc) % 2 ? cube : hyperbolic;
    double dl[COLS] = {0}, dx3[COLS] = {0};
    __parad_autodiff((void *)layer, v, dl, x, dx3, parad_const, chosen);
    check(layer_at, v, COLS, x, dl, dx3, layer_tangent);
  }
  return check_done();
}
