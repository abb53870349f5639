// Joined runs (reverse/rev_shared.c): an inner loop run once per row, at consecutive elements of arrays
// its function computes the addresses of once, has its runs noted as one while each starts where the
// last one ended, and noted when the run breaks off, a chunk starts or the thread leaves. Here the inner
// loop reads the vector both at its own counter (z[k], an access noted per run) and through an index
// (z[col[k]], a gather), so the copy of z that a thread's reverse sweep reads must cover both ranges; z is
// overwritten after each region, and its last elements are read at the counter only. Rows of 0 to 3
// elements (empty rows between). The shapes, a region each:
//   rows in order (runs join upwards) and in reverse order (downwards);
//   rows reading one element more, so that runs overlap (every run breaks off);
//   an inner loop counting down; an unsigned 32-bit inner counter;
//   a dynamic schedule (each chunk starts a joined run of its own);
//   two inner loops per row, each joined on its own (the row's halves);
//   the rows swept twice in one region (the second sweep's first run breaks off back to the start);
//   a store per element at the counter (a written range joined).
// The inner loops call nothing (a call could write the row bounds: the loop would not be counted).
// f(x) = weighted sums of the rows' results, x = the vector. Gradients against tangents (1e-11) and central
// differences (1e-6), at 1, 2, 3 and 4 threads at -O2, 3 at -O0. The reads fail where the joined run's
// ranges fall one element short.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 48, Z = 3 * N / 2 + 1 }; /* rows of i % 4 elements: 72 of them, and one more for the overlaps */
static int rowptr[N + 1], col[Z], mid[N];
static unsigned urow[N + 1];

static void build(void) {
  int nnz = 0;
  for (int i = 0; i < N; i++) {
    rowptr[i] = urow[i] = (unsigned)nnz;
    for (int n = 0; n < i % 4; n++, nnz++) col[nnz] = (nnz * 7 + 3) % (N / 2);
  }
  rowptr[N] = urow[N] = (unsigned)nnz;
  col[nnz] = 5;
  for (int i = 0; i < N; i++) mid[i] = (rowptr[i] + rowptr[i + 1]) / 2;
}

__attribute__((noinline)) static void in_order(const double *z, double *y) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += (1 + 0.3 * z[k]) * z[k] * z[col[k]];
    y[i] = s;
  }
}

__attribute__((noinline)) static void reversed(const double *z, double *y) {
#pragma omp parallel for
  for (int ii = 0; ii < N; ii++) {
    int i = N - 1 - ii;
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += z[k] * z[k] * z[col[k]];
    y[i] = sin(s);
  }
}

__attribute__((noinline)) static void overlapping(const double *z, double *y) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k <= rowptr[i + 1]; k++) s += z[k] * (0.5 + z[k]) * z[col[k]];
    y[i] = s;
  }
}

__attribute__((noinline)) static void downwards(const double *z, double *y) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    double s = 1;
    for (int k = rowptr[i + 1] - 1; k >= rowptr[i]; k--) s = s * 0.5 + z[k] * z[k] * z[col[k]];
    y[i] = s;
  }
}

__attribute__((noinline)) static void unsigned_counter(const double *z, double *y) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (unsigned k = urow[i]; k < urow[i + 1]; k++) s += z[k] * z[col[k]] * (2 - z[col[k]]);
    y[i] = s * s;
  }
}

__attribute__((noinline)) static void dynamic(const double *z, double *y) {
#pragma omp parallel for schedule(dynamic, 3)
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += z[k] * z[col[k]] * z[col[k]];
    y[i] = cos(s);
  }
}

__attribute__((noinline)) static void halves(const double *z, double *y) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    double s = 0, t = 0;
    for (int k = rowptr[i]; k < mid[i]; k++) s += z[k] * z[k] * z[col[k]];
    for (int k = mid[i]; k < rowptr[i + 1]; k++) t += z[k] * z[col[k]] * z[col[k]];
    y[i] = s - 0.5 * t;
  }
}

__attribute__((noinline)) static void twice(const double *z, double *y) {
#pragma omp parallel
  for (int sweep = 0; sweep < 2; sweep++) {
#pragma omp for
    for (int i = 0; i < N; i++) {
      double s = 0;
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += z[k] * z[col[k]] * (sweep + 1);
      y[i] += s * s;
    }
  }
}

__attribute__((noinline)) static void writes(const double *z, double *w) {
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) w[k] = z[k] * z[col[k]] + z[k] * z[k];
}

static double f(const double *x) {
  double z[Z], y[8][N] = {{0}}, w[Z], s = 0;
  for (int k = 0; k < Z; k++) z[k] = x[k];
  in_order(z, y[0]);
  for (int k = 0; k < Z; k++) z[k] = sin(z[k]) + 0.1 * y[0][k % N];
  reversed(z, y[1]);
  for (int k = 0; k < Z; k++) z[k] = z[k] * 0.9 + 0.05 * y[1][k % N];
  overlapping(z, y[2]);
  for (int k = 0; k < Z; k++) z[k] = cos(z[k]) + 0.02 * y[2][k % N];
  downwards(z, y[3]);
  for (int k = 0; k < Z; k++) z[k] = z[k] * 1.1 - 0.03 * y[3][k % N];
  unsigned_counter(z, y[4]);
  for (int k = 0; k < Z; k++) z[k] = sin(z[k] + 0.01 * y[4][k % N]);
  dynamic(z, y[5]);
  for (int k = 0; k < Z; k++) z[k] = cos(z[k]) - 0.02 * y[5][k % N];
  halves(z, y[6]);
  for (int k = 0; k < Z; k++) z[k] = z[k] * 0.95 + 0.04 * y[6][k % N];
  twice(z, y[7]);
  for (int k = 0; k < Z; k++) z[k] = sin(z[k]) + 0.01 * y[7][k % N], w[k] = 0;
  writes(z, w);
  for (int k = 0; k < Z; k++) z[k] = 0, s += 0.1 * k * w[k];
  for (int r = 0; r < 8; r++)
    for (int i = 0; i < N; i++) s += cos(0.3 * i + r) * y[r][i];
  return s;
}

int main(void) {
  build();
  if (rowptr[N] + 1 != Z) {
    printf("FAIL: %d elements\n", rowptr[N]);
    return 1;
  }
  double x[Z];
  for (int k = 0; k < Z; k++) x[k] = 0.6 * sin(0.7 * k + 0.2);
  CHECK_GRADIENT(f, x, Z, 1e-11, 1e-6, 1e-6);
  return check_done();
}
