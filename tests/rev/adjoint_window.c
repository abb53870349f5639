// Adjoint windows (reverse/rev_window.c): a loop reading a line of neighbours u[j-1], u[j], u[j+1] sums
// their adjoints in registers that slide along the loop. Each kernel's gradient is checked against
// central finite differences (h = 1e-6, tolerance 1e-7) for trip counts 1, 2, 3 and 7, where the
// window's first and last elements are flushed differently:
//   k1   forward loop, offsets -1, 0, +1, each with its own coefficient;
//   k2   backward loop, offsets -2, 0, +1 (a gap in the window), nonlinear in each;
//   k1f  k1 in float (tolerance 1e-2: finite differences in single precision);
//   k1 again with its output overlapping its input (v = u + 1): the check at run time turns the window
//        off and the adjoints go to memory as they come;
//   gs   an in-place sweep (u[j] = (u[j-1] + u[j] + u[j+1]) / 3): the store clears an element of the
//        window, so no window.
// The build prints which loops got a window (PARAD_PLAN), checked with FileCheck.
// RUN: env PARAD_PLAN=1 %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s && %t
// CHECK-DAG: adjoint window in k1: 3 loads over 3 elements, checked per run
// CHECK-DAG: adjoint window in k2: 3 loads over 4 elements, checked per run
// CHECK-DAG: adjoint window in k1f: 3 loads over 3 elements, checked per run
// CHECK-NOT: adjoint window in gs
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);

enum { MAXN = 16 };

__attribute__((noinline)) static void k1(const double *u, double *v, int n) {
  for (int j = 1; j < n - 1; j++) v[j] = 0.3 * u[j - 1] + u[j] * u[j] - 0.7 * u[j + 1];
}

__attribute__((noinline)) static void k2(const double *u, double *v, int n) {
  for (int j = n - 2; j >= 2; j--) v[j] = u[j - 2] * u[j + 1] + sin(u[j]);
}

__attribute__((noinline)) static void k1f(const float *u, float *v, int n) {
  for (int j = 1; j < n - 1; j++) v[j] = 0.3f * u[j - 1] + u[j] * u[j] - 0.7f * u[j + 1];
}

__attribute__((noinline)) static void gs(double *u, int n) {
  for (int j = 1; j < n - 1; j++) u[j] = (u[j - 1] + u[j] + u[j + 1]) / 3;
}

static double energy(const double *v, int n) {
  double e = 0;
  for (int j = 0; j < n; j++) e += 0.1 * (j + 1) * v[j] * v[j];
  return e;
}

static double obj1(const double *u, int n) {
  double v[MAXN] = {0};
  k1(u, v, n);
  return energy(v, n);
}

static double obj2(const double *u, int n) {
  double v[MAXN] = {0};
  k2(u, v, n);
  return energy(v, n);
}

static float obj1f(const float *u, int n) {
  float v[MAXN] = {0};
  k1f(u, v, n);
  float e = 0;
  for (int j = 0; j < n; j++) e += 0.1f * (j + 1) * v[j] * v[j];
  return e;
}

/* k1 with v = u + 1: v[j] = u[j + 1] is overwritten while later iterations still read their line */
static double obj_overlap(const double *u0, int n) {
  double buf[MAXN + 1];
  memcpy(buf, u0, n * sizeof *buf);
  buf[n] = 0;
  k1(buf, buf + 1, n);
  return energy(buf, n + 1);
}

static double obj_gs(const double *u0, int n) {
  double u[MAXN];
  memcpy(u, u0, n * sizeof *u);
  for (int sweep = 0; sweep < 3; sweep++) gs(u, n);
  return energy(u, n);
}

typedef double (*Obj)(const double *, int);
typedef struct { Obj f; const double *u; int n, k; } Ctx;

static double along(void *p, double t) {
  Ctx *c = p;
  double u[MAXN];
  memcpy(u, c->u, c->n * sizeof *u);
  u[c->k] += t;
  return c->f(u, c->n);
}

static void check(Obj f, const double *du, const double *u, int n) {
  for (int k = 0; k < n; k++) {
    Ctx c = {f, u, n, k};
    CHECK_CLOSE(du[k], fd_central(along, &c, 0, 1e-6), 1e-7);
  }
}

typedef struct { const float *u; int n, k; } CtxF;

static double along_f(void *p, double t) {
  CtxF *c = p;
  float u[MAXN];
  memcpy(u, c->u, c->n * sizeof *u);
  u[c->k] += (float)t;
  return obj1f(u, c->n);
}

int main(void) {
  static const int sizes[] = {3, 4, 5, 9}; /* trip counts 1, 2, 3, 7 for k1 */
  for (unsigned s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int n = sizes[s];
    double u[MAXN], du[MAXN];
    for (int i = 0; i < n; i++) u[i] = 0.4 + 0.3 * sin(1.7 * i);
    memset(du, 0, sizeof du);
    __parad_autodiff((void *)obj1, u, du, n);
    check(obj1, du, u, n);
    if (n >= 4) { /* k2's loop runs n - 3 times */
      memset(du, 0, sizeof du);
      __parad_autodiff((void *)obj2, u, du, n);
      check(obj2, du, u, n);
    }
    memset(du, 0, sizeof du);
    __parad_autodiff((void *)obj_overlap, u, du, n);
    check(obj_overlap, du, u, n);
    memset(du, 0, sizeof du);
    __parad_autodiff((void *)obj_gs, u, du, n);
    check(obj_gs, du, u, n);
    float uf[MAXN], duf[MAXN] = {0};
    for (int i = 0; i < n; i++) uf[i] = (float)u[i];
    __parad_autodiff((void *)obj1f, uf, duf, n);
    for (int k = 0; k < n; k++) {
      CtxF c = {uf, n, k};
      CHECK_CLOSE(duf[k], fd_central(along_f, &c, 0, 1e-2), 1e-2);
    }
  }
  return check_done();
}
