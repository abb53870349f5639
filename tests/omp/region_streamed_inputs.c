// A parallel region's streamed inputs: an array a region's function only reads, element by element, in a
// loop whose stores have ranges known as a run starts. The reverse sweep reads such reads from a copy of the
// run's range made as the run starts (shared with an earlier copy that holds the same bytes), or, where a
// store of the run may write the range, from values recorded read by read. f(x) = weighted sums of the
// results, x = a tridiagonal matrix's diagonal and a right-hand side:
//   - conjugate gradients in three regions per iteration: the product (it gathers p, copied as the thread
//     leaves), the update (it streams p and q: p's copy is the product's, q's its own; the new r recorded),
//     the direction update in place; once with p changed by serial code between the product and the update
//     (the update's copy of p is then its own);
//   - an update in place through a second pointer (out == in), and, block by block, one shifted by an
//     element (out == in + 1: a read of what the run wrote): the run's stores may write what it reads, so it
//     records;
//   - one parallel region whose first loop writes an array and whose second, after the barrier, streams it
//     through another pointer, then a third loop writes it again and a fourth streams it again (the second
//     run of the object in the call records);
//   - the direction update p[i] = r[i] + beta p[i] reads p in place (its copy is the product's, unchanged);
//     block by block, a running update in place, a[i] = a[i] (1 + 0.1 a[i-3]^2), reads what an earlier
//     iteration wrote, so it records;
//   - a dynamic schedule (a thread's first chunk copied, its later ones recorded).
// Gradients against tangents (1e-11) and central differences (1e-6), at 1, 2 and 3 threads at -O2, 2 at -O0,
// and at 2 threads with the copies off (PARAD_REGION_COPIES=0).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: env PARAD_REGION_COPIES=0 OMP_NUM_THREADS=2 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 192, M = N + N }; /* the diagonal, then the right-hand side */
static int rowptr[N + 1], col[3 * N], nnz;

static void build(void) {
  for (int i = 0; i < N; i++) {
    rowptr[i] = nnz;
    for (int j = i - 1; j <= i + 1; j++)
      if (j >= 0 && j < N) col[nnz++] = j;
  }
  rowptr[N] = nnz;
}

/* q = A p (A: diag on the diagonal, -1 beside it), returns p . q */
__attribute__((noinline)) static double product(const double *diag, const double *p, double *q) {
  double pq = 0;
#pragma omp parallel for reduction(+ : pq)
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += (col[k] == i ? diag[i] : -1.0) * p[col[k]];
    q[i] = s;
    pq += p[i] * s;
  }
  return pq;
}

/* x += alpha p, r -= alpha q, returns r . r */
__attribute__((noinline)) static double update(double alpha, const double *p, const double *q, double *x, double *r) {
  double rr = 0;
#pragma omp parallel for reduction(+ : rr)
  for (int i = 0; i < N; i++) {
    x[i] += alpha * p[i] * p[i] / (1 + p[i] * p[i]); /* p's value needed, not only its adjoint */
    r[i] -= alpha * q[i];
    rr += r[i] * r[i];
  }
  return rr;
}

__attribute__((noinline)) static void direction(double beta, const double *r, double *p) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) p[i] = r[i] + beta * p[i];
}

static double cg(const double *diag, const double *b, double *x, int disturb) {
  double r[N], p[N], q[N], rr = 0;
  for (int i = 0; i < N; i++) x[i] = 0, r[i] = p[i] = b[i], rr += b[i] * b[i];
  for (int it = 0; it < 4; it++) {
    double alpha = rr / product(diag, p, q);
    if (disturb) p[it * 7] *= 1.01; /* changed after the product copied it */
    double rr_new = update(alpha, p, q, x, r);
    direction(rr_new / rr, r, p);
    rr = rr_new;
  }
  double s = 0;
  for (int i = 0; i < N; i++) s += sin(0.1 * i) * x[i] + 0.01 * p[i];
  return s;
}

/* out[i] = tanh(in[i]) * in[i]: in place when out == in */
__attribute__((noinline)) static void squash(const double *in, double *out) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) out[i] = tanh(in[i]) * in[i];
}

/* the same over blocks of 48 but their last elements, a block per iteration: out == in + 1 writes, in
 * each iteration of a block, what the next one reads */
__attribute__((noinline)) static void squash_blocks(const double *in, double *out) {
#pragma omp parallel for schedule(static, 1)
  for (int b = 0; b < N / 48; b++)
    for (int i = 48 * b; i < 48 * b + 47; i++) out[i] = tanh(in[i]) * in[i];
}

/* a = t^2; then b = sin(c) (c == a); then a = 2 b; then b = c * c again: c's second run records */
__attribute__((noinline)) static void phases(const double *t, double *a, const double *c, double *b) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < N; i++) a[i] = t[i] * t[i];
#pragma omp for
    for (int i = 0; i < N; i++) b[i] = sin(c[i]);
#pragma omp for
    for (int i = 0; i < N; i++) a[i] = 2 * b[i] + 0.5;
#pragma omp for
    for (int i = 0; i < N; i++) b[i] = c[i] * c[i] * c[i];
  }
}

__attribute__((noinline)) static void running(double *a) {
#pragma omp parallel for schedule(static, 1)
  for (int b = 0; b < N / 48; b++) {
    double *at = a + 48 * b;
    const double *back = at - 3; /* what the run wrote three iterations before */
    for (int i = 3; i < 48; i++) at[i] = at[i] * (1 + 0.1 * back[i] * back[i]);
  }
}

__attribute__((noinline)) static void dynamic(const double *in, double *out) {
#pragma omp parallel for schedule(dynamic, 40)
  for (int i = 0; i < N; i++) out[i] = exp(0.5 * in[i]) * in[i];
}

static double f(const double *x) {
  const double *diag = x, *b = x + N;
  double x1[N], x2[N], w[N], a[N], c[N], d[N], e[N];
  double s = cg(diag, b, x1, 0) + 0.5 * cg(diag, b, x2, 1);
  for (int i = 0; i < N; i++) w[i] = x1[i] + 0.1 * b[i];
  squash(w, w);            /* in place */
  squash_blocks(w, w + 1); /* each store ahead of the next read */
  phases(w, a, a, c);
  dynamic(c, d);
  for (int i = 0; i < N; i++) e[i] = 0.8 + 5 * w[i];
  running(e);
  for (int i = 0; i < N; i++) s += cos(0.2 * i) * w[i] + 0.3 * a[i] + 0.2 * c[i] + 0.1 * d[i] + 0.05 * e[i] * e[i];
  return s;
}

int main(void) {
  build();
  double x[M];
  for (int i = 0; i < N; i++) x[i] = 4.2 + 0.1 * sin(i), x[N + i] = 0.5 * sin(0.7 * i + 0.2);
  CHECK_GRADIENT(f, x, M, 1e-11, 1e-6, 1e-6);
  return check_done();
}
