// A time loop inside one parallel region: every thread runs all T = 10 steps of a nonlinear stencil b_i = a_i
// + r (a_{i-1} - 2 a_i + a_{i+1}) + dt sin(a_i), a <- b (periodic), with the steps separated by barriers: in
// step() by the implicit barriers of two 'omp for' loops, in explicit() by 'omp for nowait' loops and explicit
// '#pragma omp barrier's. The reverse sweep must run the steps backwards with a barrier between each of them,
// and every thread's tape holds its share of all steps. f = sum_i (1 + 0.1 i) a_i at the end. No closed form:
// reverse gradient checked against forward tangents along every unit direction (tolerance 1e-12), tangents
// against central finite differences (h = 1e-6, tolerance 1e-7), the two forms against each other (1e-12), and
// against the same time loop written with a region per step (1e-12).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 22, T = 10 };
static const double R = 0.25, DT = 0.1;

static double sum_weighted(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (1 + 0.1 * i) * a[i];
  return s;
}

__attribute__((noinline)) static double step(const double *u0, int n, int steps) {
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++) a[i] = u0[i];
    for (int t = 0; t < steps; t++) {
#pragma omp for
      for (int i = 0; i < n; i++) b[i] = a[i] + R * (a[(i + n - 1) % n] - 2 * a[i] + a[(i + 1) % n]) + DT * sin(a[i]);
#pragma omp for
      for (int i = 0; i < n; i++) a[i] = b[i];
    }
  }
  double s = sum_weighted(a, n);
  free(a);
  free(b);
  return s;
}

__attribute__((noinline)) static double explicit(const double *u0, int n, int steps) {
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < n; i++) a[i] = u0[i];
#pragma omp barrier
    for (int t = 0; t < steps; t++) {
#pragma omp for nowait schedule(static, 3)
      for (int i = 0; i < n; i++) b[i] = a[i] + R * (a[(i + n - 1) % n] - 2 * a[i] + a[(i + 1) % n]) + DT * sin(a[i]);
#pragma omp barrier
#pragma omp for nowait schedule(static, 4)
      for (int i = 0; i < n; i++) a[i] = b[i];
#pragma omp barrier
    }
  }
  double s = sum_weighted(a, n);
  free(a);
  free(b);
  return s;
}

__attribute__((noinline)) static double per_step(const double *u0, int n, int steps) {
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++) a[i] = u0[i];
  for (int t = 0; t < steps; t++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++) b[i] = a[i] + R * (a[(i + n - 1) % n] - 2 * a[i] + a[(i + 1) % n]) + DT * sin(a[i]);
    double *tmp = a;
    a = b, b = tmp;
  }
  double s = sum_weighted(a, n);
  free(a);
  free(b);
  return s;
}

static double U0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double u[N];
  for (int i = 0; i < N; i++) u[i] = U0[i] + (i == k) * t;
  return step(u, N, T);
}

int main(void) {
  double u[N], d1[N] = {0}, d2[N] = {0}, d3[N] = {0}, e[N];
  for (int i = 0; i < N; i++) U0[i] = u[i] = cos(0.6 * i) + 0.5 * sin(1.9 * i);
  CHECK_CLOSE(step(u, N, T), per_step(u, N, T), 1e-13);
  CHECK_CLOSE(explicit(u, N, T), per_step(u, N, T), 1e-13);
  __parad_autodiff((void *)step, u, d1, parad_const, N, parad_const, T);
  __parad_autodiff((void *)explicit, u, d2, parad_const, N, parad_const, T);
  __parad_autodiff((void *)per_step, u, d3, parad_const, N, parad_const, T);
  for (int k = 0; k < N; k++) {
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t1 = __parad_fwddiff((void *)step, u, e, parad_const, N, parad_const, T);
    double t2 = __parad_fwddiff((void *)explicit, u, e, parad_const, N, parad_const, T);
    CHECK_CLOSE(d1[k], t1, 1e-12);
    CHECK_CLOSE(d2[k], t2, 1e-12);
    CHECK_CLOSE(d1[k], d3[k], 1e-12);
    CHECK_CLOSE(d2[k], d3[k], 1e-12);
    CHECK_CLOSE(t1, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
