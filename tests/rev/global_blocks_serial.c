// Heap blocks kept in pointer globals, in the serial shapes programs write them (tests/rev/global_blocks.c
// has the OpenMP ones): two buffers swapped through the globals in a time loop (`double *t = u; u = v;
// v = t;`), the same in a global struct's fields (`grid.u`, `grid.unew`; allocated by main, or by the
// function on its first call), a scratch block allocated on
// first use and updated in place each step, and a comparator's context kept in a global around qsort. Each
// was refused ("cannot store an active value into memory without a shadow (a pointer loaded from the global
// variable 'u' ...)"): the loop checkpointed without a marker noted the globals (its twin is refused
// instead), and where main also calls the function, the optimiser's copy in main stores a choice of the
// globals' blocks (phis), or a local's address (at -O0, the swap's local slot), which did not count as
// set-up. Gradients against the
// analytic ones (1e-12) and the tangents along each unit direction (1e-12), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 4, STEPS = 3 };
static double *u, *v;       /* main allocates them */
static struct {
  double *u, *unew;
} grid;                     /* main allocates them */
static struct {
  double *u, *unew;
} lazy;                     /* the function allocates them */
static double *scratch;     /* the function allocates it */
static const double *keys;  /* qsort's context */

/* u_t = u_{t-1}^2, x to the power 2^STEPS: sum_i u_i */
static double swapped(const double *x, int n) {
  for (int i = 0; i < n; i++) u[i] = x[i];
  for (int t = 0; t < STEPS; t++) {
    for (int i = 0; i < n; i++) v[i] = u[i] * u[i];
    double *s = u;
    u = v, v = s;
  }
  double r = 0;
  for (int i = 0; i < n; i++) r += u[i];
  return r;
}

static double in_grid(const double *x, int n) {
  for (int i = 0; i < n; i++) grid.u[i] = x[i];
  for (int t = 0; t < STEPS; t++) {
    for (int i = 0; i < n; i++) grid.unew[i] = grid.u[i] * grid.u[i];
    double *s = grid.u;
    grid.u = grid.unew, grid.unew = s;
  }
  double r = 0;
  for (int i = 0; i < n; i++) r += grid.u[i];
  return r;
}

static double lazy_grid(const double *x, int n) {
  if (!lazy.u) lazy.u = malloc(N * sizeof(double)), lazy.unew = malloc(N * sizeof(double));
  for (int i = 0; i < n; i++) lazy.u[i] = x[i];
  for (int t = 0; t < STEPS; t++) {
    for (int i = 0; i < n; i++) lazy.unew[i] = lazy.u[i] * lazy.u[i];
    double *s = lazy.u;
    lazy.u = lazy.unew, lazy.unew = s;
  }
  double r = 0;
  for (int i = 0; i < n; i++) r += lazy.u[i];
  return r;
}

static double in_place(const double *x, int n) {
  if (!scratch) scratch = malloc(N * sizeof *scratch);
  for (int i = 0; i < n; i++) scratch[i] = x[i];
  for (int t = 0; t < STEPS; t++)
    for (int i = 0; i < n; i++) scratch[i] = scratch[i] * scratch[i];
  double r = 0;
  for (int i = 0; i < n; i++) r += scratch[i];
  return r;
}

static int by_key(const void *a, const void *b) {
  double x = keys[*(const int *)a], y = keys[*(const int *)b];
  return (x > y) - (x < y);
}

/* sum_k (k + 1) x_(k)^2 over x sorted */
static double ranked(const double *x, int n) {
  int idx[N];
  for (int i = 0; i < n; i++) idx[i] = i;
  keys = x;
  qsort(idx, n, sizeof idx[0], by_key);
  keys = NULL;
  double r = 0;
  for (int k = 0; k < n; k++) r += (k + 1) * x[idx[k]] * x[idx[k]];
  return r;
}

typedef double (*Fn)(const double *, int);

static void check(Fn f, int which, const double *x, const double *want) {
  double dx[N] = {0};
  switch (which) {
  case 0: __parad_autodiff((void *)swapped, x, dx, parad_const, N); break;
  case 1: __parad_autodiff((void *)in_grid, x, dx, parad_const, N); break;
  case 2: __parad_autodiff((void *)in_place, x, dx, parad_const, N); break;
  case 4: __parad_autodiff((void *)lazy_grid, x, dx, parad_const, N); break;
  default: __parad_autodiff((void *)ranked, x, dx, parad_const, N); break;
  }
  for (int k = 0; k < N; k++) {
    double e[N] = {0}, t;
    e[k] = 1;
    switch (which) {
    case 0: t = __parad_fwddiff((void *)swapped, x, e, parad_const, N); break;
    case 1: t = __parad_fwddiff((void *)in_grid, x, e, parad_const, N); break;
    case 2: t = __parad_fwddiff((void *)in_place, x, e, parad_const, N); break;
    case 4: t = __parad_fwddiff((void *)lazy_grid, x, e, parad_const, N); break;
    default: t = __parad_fwddiff((void *)ranked, x, e, parad_const, N); break;
    }
    CHECK_CLOSE(dx[k], want[k], 1e-12);
    CHECK_CLOSE(t, want[k], 1e-12);
  }
  CHECK_CLOSE(f(x, N), f(x, N), 0); /* main calls each function too: its copy in main sets the globals */
}

int main(void) {
  u = malloc(N * sizeof *u), v = malloc(N * sizeof *v);
  grid.u = malloc(N * sizeof(double)), grid.unew = malloc(N * sizeof(double));
  double x[N] = {0.9, -0.7, 1.1, 0.55}, power[N], rank[N] = {0};
  for (int i = 0; i < N; i++) power[i] = 8 * pow(x[i], 7); /* d/dx x^8 */
  /* the order of x: -0.7, 0.55, 0.9, 1.1 */
  rank[1] = 2 * 1 * x[1], rank[3] = 2 * 2 * x[3], rank[0] = 2 * 3 * x[0], rank[2] = 2 * 4 * x[2];
  for (int round = 0; round < 2; round++) {
    check(swapped, 0, x, power);
    check(in_grid, 1, x, power);
    check(in_place, 2, x, power);
    check(lazy_grid, 4, x, power);
    check(ranked, 3, x, rank);
  }
  return check_done();
}
