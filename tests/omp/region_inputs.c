// A parallel region's inputs: an array a region's function only reads, at addresses its loops compute from
// data (a sparse product's p[col[k]]), which the reverse sweep reads from a copy of what each thread read,
// made as the thread leaves the region, rather than from values recorded read by read. Both modes: three
// conjugate-gradient iterations on a CSR matrix (the product and p . Ap in one region, with a reduction;
// p overwritten in place after it, so that a reverse sweep reading p from memory would see the new values);
// a region reading one array at permuted and strided addresses (every thread reads all of it), the array
// overwritten afterwards; a region that writes an array and, after a barrier, gathers from it through
// another pointer (no copy: the barrier orders other threads' writes before the reads). f(x) = weighted
// sums of the results, x = the matrix's values and the right-hand side. Gradients against tangents
// (1e-11) and central differences (1e-6), at 1, 2 and 4 threads at -O2, 3 at -O0, and at 2 threads with the
// copies off (PARAD_REGION_COPIES=0). A region that gathers through one pointer what it writes through
// another equal to it (out == in, the index list the identity) has its reads recorded, not copied (it
// stopped the program before); one that writes through another pointer into what it gathers (out = in + 1,
// every other element) stops the program with a message (a copy made as the thread leaves would not hold
// what it read), and runs with the copies off.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: env PARAD_REGION_COPIES=0 OMP_NUM_THREADS=2 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: %parad-cc %cflags -fopenmp -DALIASED %s -o %t1 -lm && env OMP_NUM_THREADS=2 not %t1 2>&1 | FileCheck %s
// RUN: env PARAD_REGION_COPIES=0 OMP_NUM_THREADS=2 %t1
// CHECK: a parallel region wrote, through one pointer, memory that it read through another
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { G = 4, N = G * G, MAXNZ = 5 * N };
static int rowptr[N + 1], col[MAXNZ], nnz, perm[N], ident[N];
enum { M = 64 + N }; /* nnz of the 4 x 4 grid's 5-point matrix, then the right-hand side */

static void build(void) {
  for (int i = 0; i < G; i++)
    for (int j = 0; j < G; j++) {
      rowptr[i * G + j] = nnz;
      static const int d[5][2] = {{-1, 0}, {0, -1}, {0, 0}, {0, 1}, {1, 0}};
      for (int n = 0; n < 5; n++) {
        int p = i + d[n][0], q = j + d[n][1];
        if (p >= 0 && p < G && q >= 0 && q < G) col[nnz++] = p * G + q;
      }
    }
  rowptr[N] = nnz;
  for (int i = 0; i < N; i++) perm[i] = (5 * i + 3) % N, ident[i] = i;
}

/* y = sin(z[perm[i]]) * z[(7 i) % N] + z[i]: each thread reads all of z */
__attribute__((noinline)) static void permuted(const double *z, double *y) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) y[i] = sin(z[perm[i]]) * z[(7 * i) % N] + z[i];
}

/* a[i] = t[i]^2, then, after the barrier, b[i] = sum of a's neighbours read through c (c == a) */
__attribute__((noinline)) static void write_then_gather(const double *t, double *a, const double *c, double *b) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < N; i++) a[i] = t[i] * t[i];
#pragma omp for
    for (int i = 0; i < N; i++) {
      double s = 0;
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += c[col[k]];
      b[i] = s;
    }
  }
}

/* out[i] = in[ident[i]]^2 with out == in and ident[i] == i: each thread reads what it then writes */
__attribute__((noinline)) static void square_in_place(const double *in, double *out) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    double v = in[ident[i]];
    out[i] = v * v;
  }
}

#ifdef ALIASED
/* the same at even i, with out == in + 1: the odd elements from the even ones */
__attribute__((noinline)) static void square_shifted(const double *in, double *out) {
#pragma omp parallel for
  for (int i = 0; i < N - 1; i += 2) {
    double v = in[ident[i]];
    out[i] = v * v;
  }
}
#endif

static double f(const double *x) {
  const double *val = x, *b = x + nnz;
  double xs[N], r[N], p[N], q[N], rr = 0;
  for (int i = 0; i < N; i++) xs[i] = 0, r[i] = p[i] = b[i], rr += b[i] * b[i];
  for (int it = 0; it < 3; it++) {
    double pq = 0;
#pragma omp parallel for reduction(+ : pq)
    for (int i = 0; i < N; i++) {
      double s = 0;
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * p[col[k]];
      q[i] = s;
      pq += p[i] * s;
    }
    double alpha = rr / pq, rr_new = 0;
    for (int i = 0; i < N; i++) xs[i] += alpha * p[i], r[i] -= alpha * q[i], rr_new += r[i] * r[i];
    double beta = rr_new / rr;
    rr = rr_new;
    for (int i = 0; i < N; i++) p[i] = r[i] + beta * p[i];
  }
  double y[N], a[N], c[N], s = 0;
  permuted(xs, y);
  for (int i = 0; i < N; i++) xs[i] = cos(xs[i]); /* overwritten after the region read it */
  write_then_gather(y, a, a, c);
  square_in_place(c, c);
#ifdef ALIASED
  square_shifted(c, c + 1);
#endif
  for (int i = 0; i < N; i++) s += cos(0.3 * i) * xs[i] + (1 + 0.1 * i) * y[i] + 0.2 * c[i] + 0.1 * p[i];
  return s;
}

int main(void) {
  build();
  if (nnz + N != M) {
    printf("FAIL: %d nonzeros\n", nnz);
    return 1;
  }
  double x[M];
  for (int r = 0; r < N; r++)
    for (int k = rowptr[r]; k < rowptr[r + 1]; k++) x[k] = col[k] == r ? 4.4 : -1 + 0.01 * ((r * 7 + col[k] * 3) % 5);
  for (int i = 0; i < N; i++) x[nnz + i] = sin(0.7 * i + 0.2);
  CHECK_GRADIENT(f, x, M, 1e-11, 1e-6, 1e-6);
  return check_done();
}
