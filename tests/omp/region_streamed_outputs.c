// A parallel region's streamed outputs: an array a region's function only writes, by one store in a loop
// that runs once per call, element by element, whose stored values its reverse sweep needs. The reverse
// sweep reads them from a copy of what the loop wrote, made as the loop ends, instead of records; where
// another store of the run may write there, the run records as before. f(x) = weighted sums of the results:
//   - y[i] = exp(x[i]) (the derivative is the stored value), then y overwritten by another region: the copy
//     made as the loop ended holds what the reverse sweep needs;
//   - a sparse row sum q[i] = sum_k v[k] p[col[k]] kept for the product p . q (cg's product);
//   - a loop that stores y[i] = exp(x[i]) and then z[i] = 0.5 x[i] with z == y - 1, run by one thread
//     (single), with the exponentials summed too: each iteration overwrites what the one before stored,
//     so the run records (252 of 1020 checks fail where it is copied);
//   - a dynamic schedule (the loop runs once per chunk, not per call: recorded).
// Gradients against tangents (1e-11) and central differences (1e-6), at 1, 2 and 3 threads at -O2, 2 at -O0,
// and at 2 threads with the copies off (PARAD_REGION_COPIES=0).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: env PARAD_REGION_COPIES=0 OMP_NUM_THREADS=2 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 128 };
static int rowptr[N + 1], col[3 * N];

__attribute__((noinline)) static void exps(const double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) y[i] = exp(x[i]);
}

__attribute__((noinline)) static void scale(const double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) y[i] = 3 * x[i];
}

/* q = A p (A: v on the three diagonals), returns p . q */
__attribute__((noinline)) static double product(const double *v, const double *p, double *q) {
  double pq = 0;
#pragma omp parallel for reduction(+ : pq)
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += v[k] * p[col[k]];
    q[i] = s;
    pq += p[i] * s;
  }
  return pq;
}

/* y[i] = exp(x[i]), then z[i] = 0.5 x[i] with z == y - 1: the next iteration's second store overwrites
 * what this one stored first (one thread runs the loop); returns the sum of exp(x[i])^2, which needs them */
__attribute__((noinline)) static double overwritten(const double *x, double *y, double *z) {
  double t = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 1; i < N; i++) {
    double e = exp(x[i]);
    y[i] = e;
    z[i] = 0.5 * x[i];
    t += e * e;
  }
  return t;
}

__attribute__((noinline)) static void dynamic(const double *x, double *y) {
#pragma omp parallel for schedule(dynamic, 40)
  for (int i = 0; i < N; i++) y[i] = exp(0.5 * x[i]);
}

static double f(const double *x) {
  const double *v = x + N; /* the matrix's values, after N inputs */
  double y[N], q[N], w[N], d[N], s = 0;
  exps(x, y);
  for (int i = 0; i < N; i++) s += sin(0.1 * i) * y[i];
  scale(x, y); /* y overwritten: the reverse sweep of exps needs what it was */
  double pq = product(v, y, q);
  for (int i = 0; i < N; i++) w[i] = 0.2 * x[i];
  s += 0.3 * overwritten(x, w, w - 1);
  dynamic(x, d);
  for (int i = 0; i < N; i++) s += cos(0.2 * i) * (y[i] + 0.1 * q[i] + w[i] + d[i]);
  return s + 0.01 * pq;
}

int main(void) {
  int nnz = 0;
  for (int i = 0; i < N; i++) {
    rowptr[i] = nnz;
    for (int j = i - 1; j <= i + 1; j++)
      if (j >= 0 && j < N) col[nnz++] = j;
  }
  rowptr[N] = nnz;
  enum { M = N + 3 * N - 2 };
  double x[M];
  for (int i = 0; i < M; i++) x[i] = 0.4 * sin(0.37 * i + 0.1);
  CHECK_GRADIENT(f, x, M, 1e-11, 1e-6, 1e-6);
  return check_done();
}
