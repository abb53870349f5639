// A function with two parallel regions in sequence and serial code between them: region 1 writes a_i = x_i^2 +
// sin(x_i) (static); serially, c = sum_i a_i / n; region 2 reads a (all of it: a_{n-1-i}), c and x: b_i =
// a_{n-1-i} exp(-c) + x_i c (dynamic). Then f = sum_i b_i^2 / (1 + i), serially. The reverse sweep runs region
// 2's adjoint, then the serial code's, then region 1's, each region forked again with a tape per thread.
// Analytic gradient via the chain rule computed in main (tolerance 1e-12), forward tangents along every unit
// direction (1e-12), central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 31 };

__attribute__((noinline)) static double f(const double *x, int n) {
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) a[i] = x[i] * x[i] + sin(x[i]);
  double c = 0;
  for (int i = 0; i < n; i++) c += a[i];
  c /= n;
#pragma omp parallel for schedule(dynamic, 3)
  for (int i = 0; i < n; i++) b[i] = a[n - 1 - i] * exp(-c) + x[i] * c;
  double s = 0;
  for (int i = 0; i < n; i++) s += b[i] * b[i] / (1 + i);
  free(a);
  free(b);
  return s;
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, e[N], a[N], b[N], gb[N], c = 0;
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.7 * cos(0.45 * i) - 0.1;
  __parad_autodiff((void *)f, x, dx, parad_const, N);
  /* the adjoint by hand: gb -> (ga, gc, gx) -> gc spread over a -> ga -> gx */
  for (int i = 0; i < N; i++) a[i] = x[i] * x[i] + sin(x[i]), c += a[i];
  c /= N;
  double ga[N] = {0}, gx[N] = {0}, gc = 0;
  for (int i = 0; i < N; i++) {
    b[i] = a[N - 1 - i] * exp(-c) + x[i] * c;
    gb[i] = 2 * b[i] / (1 + i);
    ga[N - 1 - i] += gb[i] * exp(-c);
    gc += gb[i] * (-a[N - 1 - i] * exp(-c) + x[i]);
    gx[i] += gb[i] * c;
  }
  for (int i = 0; i < N; i++) ga[i] += gc / N, gx[i] += ga[i] * (2 * x[i] + cos(x[i]));
  for (int k = 0; k < N; k++) {
    CHECK_CLOSE(dx[k], gx[k], 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)f, x, e, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
