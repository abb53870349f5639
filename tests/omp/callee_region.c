// Parallel regions inside callees of the differentiated function: f calls smooth() twice (a 'parallel for'
// writing an output array) and norm2() (a 'parallel for' with a '+' reduction), with serial code between the
// calls. The regions' derivatives are made for the callees' augmented and reverse functions, not for the
// function the request names. u = S x, v = S tanh(u) with (S a)_i = 0.5 a_i + 0.25 (a_{i-1} + a_{i+1}) (mod
// n); f = norm2(v) + sum_i u_i x_i. Gradient checked against forward tangents along every unit direction
// (tolerance 1e-12), central finite differences (h = 1e-6, tolerance 1e-7), and the analytic gradient df/dx =
// S ((1 - tanh^2 u) o S 2 v) + 2 S x (S is symmetric), computed in main by applying S (tolerance 1e-12).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 36 };

__attribute__((noinline)) static void smooth(const double *a, double *out, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) out[i] = 0.5 * a[i] + 0.25 * (a[(i + n - 1) % n] + a[(i + 1) % n]);
}

__attribute__((noinline)) static double norm2(const double *a, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(guided)
  for (int i = 0; i < n; i++) s += a[i] * a[i];
  return s;
}

__attribute__((noinline)) static double f(const double *x, int n) {
  double *u = malloc(n * sizeof *u), *t = malloc(n * sizeof *t), *v = malloc(n * sizeof *v);
  smooth(x, u, n);
  for (int i = 0; i < n; i++) t[i] = tanh(u[i]);
  smooth(t, v, n);
  double r = norm2(v, n);
  for (int i = 0; i < n; i++) r += u[i] * x[i];
  free(u);
  free(t);
  free(v);
  return r;
}

static void S(const double *a, double *out) {
  for (int i = 0; i < N; i++) out[i] = 0.5 * a[i] + 0.25 * (a[(i + N - 1) % N] + a[(i + 1) % N]);
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, e[N], u[N], t[N], v[N], g[N], h[N];
  for (int i = 0; i < N; i++) X0[i] = x[i] = 1.4 * sin(0.33 * i) - 0.2;
  __parad_autodiff((void *)f, x, dx, parad_const, N);
  /* f = |v|^2 + u . x with u = S x, v = S tanh(u): grad = S ((1 - tanh^2 u) o S 2 v) + S x + S^T x */
  S(x, u);
  for (int i = 0; i < N; i++) t[i] = tanh(u[i]);
  S(t, v);
  for (int i = 0; i < N; i++) v[i] *= 2;
  S(v, g);
  for (int i = 0; i < N; i++) g[i] *= 1 - t[i] * t[i];
  S(g, h);
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dx[k], h[k] + 2 * u[k], 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double tf = __parad_fwddiff((void *)f, x, e, parad_const, N);
    CHECK_CLOSE(dx[k], tf, 1e-12);
    CHECK_CLOSE(tf, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
