// A view of active or constant memory kept in a local that a parallel region reads: `const double *p0 =
// x[0] > 0 ? x : c;` then p0[i] inside `#pragma omp parallel for`, c passed as constant (once refused:
// storing the view into the captured local needed a shadow for c). clang passes the local's address to
// the outlined function, which loads the view from it; the constant side shadows itself, and each load
// through the view, in the region too, compares its shadow address with its address (ad/constants.c,
// slots). c is a static const table: a reverse sweep that added into it would fault, a tangent that read
// it would be wrong. Cases, each with x chosen and with c chosen (x[0] > 0 or not):
//   captured: the view read in a region at i and at a gathered index, besides x itself;
//   inside:   a view chosen per iteration inside the region (x[i] > 0 ? x : c), read at a shifted index;
//   helper:   the view's address passed to a function that reads through it (its own slot), after a
//             region that reads it;
//   written:  the region also writes an output array read back after it, with the view beside;
//   passed:   the view passed by value to a helper (serial), and to a region as firstprivate.
// Gradients against tangents along every unit direction (1e-12) and central differences (h = 1e-6,
// tolerance 1e-7), at 1 to 4 threads at -O2 and 3 at -O0; the table is checked unchanged.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 37 };
static const double TABLE[N] = {0.5,  -1.25, 2.0,  0.75, -0.5, 1.5,  0.25, -0.75, 1.0,  -2.0,  0.125, 0.375, -1.5,
                                1.75, -0.25, 0.5,  1.25, -1.0, 2.25, 0.625, -0.125, 1.125, -0.875, 0.25, 1.5,
                                -0.5, 0.75,  -1.75, 0.5, 1.0,  -0.25, 0.875, -1.125, 0.375, 1.625, -0.625, 0.25};

__attribute__((noinline)) double captured(const double *x, const double *c, int n) {
  const double *p0 = x[0] > 0 ? x : c;
  double t = 0;
#pragma omp parallel for reduction(+ : t)
  for (int i = 0; i < n; i++) t += p0[i] * x[i] + p0[(7 * i + 3) % n] * x[(i + 1) % n] * x[i];
  return t;
}

__attribute__((noinline)) double inside(const double *x, const double *c, int n) {
  double t = 0;
#pragma omp parallel for reduction(+ : t)
  for (int i = 0; i < n; i++) {
    const double *p = x[i] > 0 ? x : c;
    t += p[(i + 5) % n] * x[i] * x[i];
  }
  return t;
}

/* not static: clang would pass the view itself (argument promotion), not its address */
__attribute__((noinline)) double through(const double *const *pp, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (*pp)[n - 1 - i] * sin(x[i]);
  return s;
}

__attribute__((noinline)) double helper(const double *x, const double *c, int n) {
  const double *p0 = x[1] < 0.5 ? c : x;
  double t = 0;
#pragma omp parallel for reduction(+ : t)
  for (int i = 0; i < n; i++) t += p0[i] * p0[i] * x[i];
  return t + through(&p0, x, n);
}

static double out[N];

__attribute__((noinline)) double written(const double *x, const double *c, int n) {
  const double *p0 = x[2] > 0 ? x : c;
#pragma omp parallel for
  for (int i = 0; i < n; i++) out[i] = p0[i] * x[(i + 2) % n] + x[i] * x[i];
  double t = 0;
  for (int i = 0; i < n; i++) t += out[i] * out[(i + 1) % n];
  return t;
}

__attribute__((noinline)) static double dotv(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[(3 * i) % n];
  return s;
}

__attribute__((noinline)) double passed(const double *x, const double *c, int n) {
  const double *p0 = x[0] > 0 ? x : c;
  double t = dotv(p0, x, n);
#pragma omp parallel for firstprivate(p0) reduction(+ : t)
  for (int i = 0; i < n; i++) t += p0[(i + 4) % n] * x[i] * x[(i + 1) % n];
  return t;
}

typedef double (*Fn)(const double *, const double *, int);

static void check_fn(const char *name, Fn f, const double *x) {
  double g[N] = {0}, v[N], y[N];
  __parad_autodiff((void *)f, x, g, parad_const, TABLE, N);
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) v[i] = i == j;
    double t = __parad_fwddiff((void *)f, x, v, parad_const, TABLE, N);
    memcpy(y, x, sizeof y);
    y[j] = x[j] + 1e-6;
    double up = f(y, TABLE, N);
    y[j] = x[j] - 1e-6;
    double fd = (up - f(y, TABLE, N)) / 2e-6;
    int before = check_failures;
    CHECK_CLOSE(g[j], t, 1e-12);
    CHECK_CLOSE(g[j], fd, 1e-7);
    if (check_failures > before) printf("  in %s, component %d\n", name, j);
  }
}

int main(void) {
  static const double copy[N] = {0.5,  -1.25, 2.0,  0.75, -0.5, 1.5,  0.25, -0.75, 1.0,  -2.0,  0.125, 0.375, -1.5,
                                 1.75, -0.25, 0.5,  1.25, -1.0, 2.25, 0.625, -0.125, 1.125, -0.875, 0.25, 1.5,
                                 -0.5, 0.75,  -1.75, 0.5, 1.0,  -0.25, 0.875, -1.125, 0.375, 1.625, -0.625, 0.25};
  double x[N];
  for (int pass = 0; pass < 2; pass++) { /* pass 0: the views choose x; pass 1: the table */
    for (int i = 0; i < N; i++) x[i] = (pass ? -1 : 1) * (0.3 + 0.05 * i) * (i % 3 ? 1 : -1);
    x[0] = pass ? -0.8 : 0.8, x[1] = pass ? 0.2 : 0.9, x[2] = pass ? -0.4 : 0.6;
    check_fn("captured", captured, x);
    check_fn("inside", inside, x);
    check_fn("helper", helper, x);
    check_fn("written", written, x);
    check_fn("passed", passed, x);
  }
  CHECK_CLOSE(memcmp(TABLE, copy, sizeof copy) == 0, 1, 0);
  return check_done();
}
