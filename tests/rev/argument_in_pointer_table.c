// A table of terms in a global (`static Term terms[8]`, each a function pointer, a pointer to its
// parameters and a weight), filled by main and read at a variable index by the function differentiated.
// (1) The parameters are the differentiated argument itself (`add(gauss, theta)`, `add(line, theta + 2)`):
// the gradient through the table's pointers was 0 in every component, in both modes, with no message (a
// user-style test; a single pointer global stopped the program already). Now the program stops before
// the derivative, naming the argument, the table and the function (the argument's extent is the
// compiler's where it sees the allocation: a table pointing into theta + 2 alone stops too); (2) a table
// of plain pointers (`static const double *rows[4]`) alike; (3) the table's parameters are constants (a
// static, a heap block, main's local) and x is the argument: runs, the gradient against central
// differences (h 1e-6, 1e-7) and the tangent (1e-12), at -O2 and -O0; (4) a table the function fills
// itself before reading is not checked (what it held before is not read); (5) one level down, a pointer
// global to a struct main allocates whose field points to the argument (`M->p = theta`), at -O0 (at -O2
// the optimiser makes the struct a global of its own, which was checked already); (6) a constant table of
// pointers into a global array that is the argument itself (`halves[2] = {W, W + 2}`), the global not
// named by the function (the request's argument known to be that global skipped the checks).
// RUN: %parad-cc %cflags %s -o %t && %t constants
// RUN: not --crash %t table 2>&1 | FileCheck %s --check-prefix=TABLE
// RUN: not --crash %t table-offset 2>&1 | FileCheck %s --check-prefix=TABLE
// RUN: not --crash %t rows 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not --crash %t forward 2>&1 | FileCheck %s --check-prefix=FORWARD
// RUN: not --crash %t constant-table 2>&1 | FileCheck %s --check-prefix=CONSTANT
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0 constants
// RUN: not --crash %t0 table 2>&1 | FileCheck %s --check-prefix=TABLE
// RUN: not --crash %t0 rows 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not --crash %t0 held 2>&1 | FileCheck %s --check-prefix=HELD
// RUN: not --crash %t0 constant-table 2>&1 | FileCheck %s --check-prefix=CONSTANT
// RUN: not --crash %t held 2>&1 | FileCheck %s --check-prefix=HELD2
// TABLE: parad: __parad_autodiff: argument #1 of 'objective' points into memory that a pointer in the global variable 'terms' points to, which 'objective' also reads through the global
// ROWS: parad: __parad_autodiff: argument #1 of 'row_sum' points into memory that a pointer in the global variable 'rows' points to, which 'row_sum' also reads through the global
// HELD: parad: __parad_autodiff: argument #1 of 'held_loss' points into memory that a pointer in the block held by the pointer global 'M' points to, which 'held_loss' also reads through the global
// HELD2: parad: __parad_autodiff: argument #1 of 'held_loss' points into
// CONSTANT: parad: __parad_autodiff: argument #1 of 'weighted' points into memory that a pointer in the global variable 'halves' points to
// FORWARD: parad: __parad_fwddiff: argument #1 of 'objective' points into memory that a pointer in the global variable 'terms' points to
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

typedef double (*term_fn)(const double *x, const double *p);
typedef struct {
  term_fn fn;
  const double *p;
  double weight;
} Term;
static Term terms[8];
static int nterms;
static const double *rows[4];

static double gauss(const double *x, const double *p) {
  double d = x[0] - p[0];
  return exp(-d * d / p[1]);
}
static double line(const double *x, const double *p) { return p[0] * x[0] * x[1] + p[1] * x[1]; }
static void add(term_fn fn, const double *p, double weight) { terms[nterms++] = (Term){fn, p, weight}; }

__attribute__((noinline)) static double objective(const double *x) {
  double e = 0;
  for (int k = 0; k < nterms; k++) e += terms[k].weight * terms[k].fn(x, terms[k].p);
  return e;
}
static double objective_at(void *c, double v) {
  double *x = c, keep = x[0];
  x[0] = v;
  double e = objective(x);
  x[0] = keep;
  return e;
}

__attribute__((noinline)) static double row_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += rows[i % 4][i % 2] * x[i % 2];
  return s;
}

typedef struct {
  double *p;
  int n;
} Model;
static Model *M;
__attribute__((noinline)) static double held_loss(const double *x) { return M->p[0] * M->p[1] + x[0]; }

static double W[4] = {1, 2, 3, 4};
static const double *const halves[2] = {W, W + 2};
static int half; /* set from the command line: the optimiser cannot fold the table away */
__attribute__((noinline)) static double weighted(const double *w) {
  (void)w;
  return halves[half][0] * halves[half][1];
}

static Term own[2];
__attribute__((noinline)) static double fills_its_own(const double *x) {
  static const double q[2] = {0.5, 2.0};
  own[0] = (Term){gauss, q, 1.0};
  own[1] = (Term){line, q, -0.5};
  double e = 0;
  for (int k = 0; k < 2; k++) e += own[k].weight * own[k].fn(x, own[k].p);
  return e;
}

static const double fixed[2] = {0.3, 2.0};

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "constants";
  double *theta = malloc(4 * sizeof(double));
  theta[0] = 0.3, theta[1] = 2, theta[2] = 0.5, theta[3] = -1;
  double g[4] = {0};
  if (!strcmp(mode, "table") || !strcmp(mode, "forward")) {
    add(gauss, theta, 1.5);
    add(line, theta + 2, 0.25);
    if (!strcmp(mode, "forward")) {
      double t[4] = {1, 0, 0, 0};
      __parad_fwddiff((void *)objective, theta, t);
    } else {
      __parad_autodiff((void *)objective, theta, g);
    }
    return 0;
  }
  if (!strcmp(mode, "table-offset")) {
    add(line, theta + 2, 0.25);
    __parad_autodiff((void *)objective, theta, g);
    return 0;
  }
  if (!strcmp(mode, "constant-table")) {
    half = argc > 2;
    __parad_autodiff((void *)weighted, W, g);
    return 0;
  }
  if (!strcmp(mode, "held")) {
    M = malloc(sizeof *M);
    M->p = theta, M->n = 2;
    __parad_autodiff((void *)held_loss, theta, g);
    return 0;
  }
  if (!strcmp(mode, "rows")) {
    double other[2] = {1, 2};
    rows[0] = rows[2] = other, rows[1] = rows[3] = theta;
    __parad_autodiff((void *)row_sum, theta, g, 8);
    return 0;
  }
  double *q = malloc(2 * sizeof *q), local[2] = {-0.2, 0.7};
  q[0] = 0.5, q[1] = 2.0;
  add(gauss, fixed, 1.5);
  add(line, q, 0.25);
  add(gauss, local, -0.5);
  double x[2] = {0.7, 0.4}, dx[2] = {0};
  __parad_autodiff((void *)objective, x, dx);
  CHECK_CLOSE(dx[0], fd_central(objective_at, x, x[0], 1e-6), 1e-7);
  double e1[2] = {1, 0}, e2[2] = {0, 1};
  CHECK_CLOSE(__parad_fwddiff((void *)objective, x, e1), dx[0], 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)objective, x, e2), dx[1], 1e-12);
  /* d/dx1 of 0.25 (q0 x0 x1 + q1 x1) alone: the gaussians do not read x1 */
  CHECK_CLOSE(dx[1], 0.25 * (q[0] * x[0] + q[1]), 1e-12);
  double d_own[2] = {0};
  __parad_autodiff((void *)fills_its_own, x, d_own);
  CHECK_CLOSE(d_own[1], -0.5 * (0.5 * x[0] + 2.0), 1e-12);
  CHECK_CLOSE(__parad_fwddiff((void *)fills_its_own, x, e1), d_own[0], 1e-12);
  free(q);
  free(theta);
  return check_done();
}
