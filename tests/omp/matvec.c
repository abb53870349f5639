// Linear algebra in parallel loops with both operands active: y = A x by rows in a 'parallel for' (each thread
// reads all of x, so x's adjoint collects from every thread), then a dot product q = x . y by a '+' reduction,
// in one region with two worksharing loops; f = q + sum_i tanh(y_i). Analytic, with g_i = x_i + 1 - tanh^2
// y_i: df/dA_ij = g_i x_j, df/dx = A^T g + y (tolerance 1e-12); forward tangents along every unit direction of
// A and x (1e-12); central finite differences along every direction of x and along a sample of A's (h = 1e-6,
// tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 12 };

__attribute__((noinline)) static double f(const double *a, const double *x, int n) {
  double *y = malloc(n * sizeof *y), q = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int j = 0; j < n; j++) s += a[i * n + j] * x[j];
      y[i] = s;
    }
#pragma omp for reduction(+ : q)
    for (int i = 0; i < n; i++) q += x[i] * y[i] + tanh(y[i]);
  }
  free(y);
  return q;
}

static double A0[N * N], X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double a[N * N], x[N];
  for (int i = 0; i < N * N; i++) a[i] = A0[i] + (N + i == k) * t;
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(a, x, N);
}

int main(void) {
  double a[N * N], x[N], da[N * N] = {0}, dx[N] = {0}, y[N], g[N], ea[N * N], ex[N];
  for (int i = 0; i < N * N; i++) A0[i] = a[i] = sin(0.31 * i) / N;
  for (int i = 0; i < N; i++) X0[i] = x[i] = cos(0.8 * i);
  __parad_autodiff((void *)f, a, da, x, dx, parad_const, N);
  for (int i = 0; i < N; i++) {
    y[i] = 0;
    for (int j = 0; j < N; j++) y[i] += a[i * N + j] * x[j];
  }
  for (int i = 0; i < N; i++) g[i] = x[i] + 1 - tanh(y[i]) * tanh(y[i]);
  for (int j = 0; j < N; j++) {
    double want = y[j];
    for (int i = 0; i < N; i++) want += a[i * N + j] * g[i];
    CHECK_CLOSE(dx[j], want, 1e-12);
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) CHECK_CLOSE(da[i * N + j], g[i] * x[j], 1e-12);
  for (int k = 0; k < N + N * N; k++) {
    for (int i = 0; i < N * N; i++) ea[i] = N + i == k;
    for (int i = 0; i < N; i++) ex[i] = i == k;
    double t = __parad_fwddiff((void *)f, a, ea, x, ex, parad_const, N);
    CHECK_CLOSE(k < N ? dx[k] : da[k - N], t, 1e-12);
    if (k < N || k % 7 == 0) CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
