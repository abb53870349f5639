// Several worksharing constructs in one parallel region, each depending on the previous ones: an 'omp for'
// writing a_i = exp(0.5 x_i); an 'omp for reduction(+ : s)' over a (s = sum a_i); a 'single' turning s into a
// shared scale c = 1 / s; an 'omp for schedule(dynamic)' writing b_i = c a_i x_{i+1} (softmax weights times
// the next input); then another 'reduction(+ : q)' with q = sum_i b_i^2. f = q + s. Analytic gradient computed
// in main by the chain rule (tolerance 1e-12), forward tangents along every unit direction (1e-12), central
// finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 34 };

__attribute__((noinline)) static double f(const double *x, int n) {
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), s = 0, c = 0, q = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++) a[i] = exp(0.5 * x[i]);
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; i++) s += a[i];
#pragma omp single
    c = 1 / s;
#pragma omp for schedule(dynamic, 2)
    for (int i = 0; i < n; i++) b[i] = c * a[i] * x[(i + 1) % n];
#pragma omp for reduction(+ : q) schedule(static, 3)
    for (int i = 0; i < n; i++) q += b[i] * b[i];
  }
  free(a);
  free(b);
  return q + s;
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, e[N], a[N], b[N], s = 0;
  for (int i = 0; i < N; i++) X0[i] = x[i] = 1.1 * sin(0.6 * i) + 0.05 * i;
  __parad_autodiff((void *)f, x, dx, parad_const, N);
  for (int i = 0; i < N; i++) a[i] = exp(0.5 * x[i]), s += a[i];
  double c = 1 / s, ga[N], gx[N] = {0}, gc = 0;
  for (int i = 0; i < N; i++) {
    b[i] = c * a[i] * x[(i + 1) % N];
    double gb = 2 * b[i];
    gc += gb * a[i] * x[(i + 1) % N];
    ga[i] = gb * c * x[(i + 1) % N];
    gx[(i + 1) % N] += gb * c * a[i];
  }
  double gs = 1 - gc / (s * s);
  for (int i = 0; i < N; i++) gx[i] += (ga[i] + gs) * 0.5 * a[i];
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dx[k], gx[k], 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
