// Gathers through an index array in a parallel region (a sparse product's p[col[k]]): the forward sweep
// notes the run of the index array each row reads, and the runtime finds the range of the gathered
// addresses from the indices (__parad_rt_index_span) when a run breaks off and as the thread leaves,
// instead of widening the range at every read. The shapes a run can take, each in a region of its own:
//   rows in order (each row's run continues the last: one span per thread), an unsigned index;
//   rows in reverse order (each run continues the last downwards);
//   rows in a permuted order (every run breaks off: one span per row);
//   rows dealt out one by one (schedule(static, 1): a thread's runs have gaps);
//   a 64-bit and a 16-bit index;
//   a gather of two fields of a struct (the span's offsets inside the element);
//   a region that also writes integers into shared memory (not taken from the index: every read widens).
// The inner loops call nothing (a call could write the row bounds: the loop would not be counted).
// The gathered arrays are overwritten after each region, so that a reverse sweep that read a copy not
// covering what a thread gathered, or added plainly where another thread adds too, gives wrong numbers.
// f(x) = weighted sums of the results, x = the matrix's values and the vector gathered from. Gradients
// against tangents (1e-11) and central differences (1e-6), at 1, 2 and 4 threads at -O2, 3 at -O0; the
// forward sweep of each region but the integer-writing one must note its gathers' spans.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: %parad-cc %cflags -fopenmp -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: define internal fastcc void @augmented.par.in_order.omp_outlined
// IR: call void @__parad_rt_index_span(
// IR-LABEL: define internal fastcc void @augmented.par.reversed.omp_outlined
// IR: call void @__parad_rt_index_span(
// IR-LABEL: define internal fastcc void @augmented.par.permuted.omp_outlined
// IR: call void @__parad_rt_index_span(
// IR-LABEL: define internal fastcc void @augmented.par.dealt.omp_outlined
// IR: call void @__parad_rt_index_span(
// IR-LABEL: define internal fastcc void @augmented.par.fields.omp_outlined
// IR: call void @__parad_rt_index_span(
// IR-LABEL: define internal fastcc void @augmented.par.counting.omp_outlined
// IR-NOT: call void @__parad_rt_index_span(
// IR-LABEL: define internal void @team.augmented.par.counting.omp_outlined
#include <math.h>
#include <stdint.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { G = 5, N = G * G, MAXNZ = 5 * N };
static int rowptr[N + 1], nnz, perm[N], counts[N];
static unsigned ucol[MAXNZ];
static long lcol[MAXNZ];
static short scol[MAXNZ];
enum { M = 105 + N }; /* nnz of the 5 x 5 grid's 5-point matrix, then the vector */

typedef struct {
  double x;
  int tag;
  double y;
} Point;

static void build(void) {
  for (int i = 0; i < G; i++)
    for (int j = 0; j < G; j++) {
      rowptr[i * G + j] = nnz;
      static const int d[5][2] = {{-1, 0}, {0, -1}, {0, 0}, {0, 1}, {1, 0}};
      for (int n = 0; n < 5; n++) {
        int p = i + d[n][0], q = j + d[n][1];
        if (p >= 0 && p < G && q >= 0 && q < G) ucol[nnz] = lcol[nnz] = scol[nnz] = (short)(p * G + q), nnz++;
      }
    }
  rowptr[N] = nnz;
  for (int i = 0; i < N; i++) perm[i] = (7 * i + 3) % N;
}

__attribute__((noinline)) static void in_order(const double *val, const double *z, double *y) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * z[ucol[k]];
    y[i] = sin(s);
  }
}

__attribute__((noinline)) static void reversed(const double *val, const double *z, double *y) {
#pragma omp parallel for
  for (int ii = 0; ii < N; ii++) {
    int i = N - 1 - ii;
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * z[lcol[k]] * z[lcol[k]];
    y[i] = s;
  }
}

__attribute__((noinline)) static void permuted(const double *val, const double *z, double *y) {
#pragma omp parallel for
  for (int ii = 0; ii < N; ii++) {
    int i = perm[ii];
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * z[scol[k]] * (1 + 0.3 * z[scol[k]]);
    y[i] = exp(0.3 * s);
  }
}

__attribute__((noinline)) static void dealt(const double *val, const double *z, double *y) {
#pragma omp parallel for schedule(static, 1)
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * z[ucol[k]];
    y[i] = s * s;
  }
}

__attribute__((noinline)) static void fields(const double *val, const Point *pts, double *y) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * pts[lcol[k]].x * pts[lcol[k]].y;
    y[i] = s;
  }
}

__attribute__((noinline)) static void counting(const double *val, const double *z, double *y) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    double s = 0;
    int c = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * z[ucol[k]], c++;
    counts[i] = c;
    y[i] = cos(s);
  }
}

static double f(const double *x) {
  const double *val = x;
  double z[N], y[6][N], s = 0;
  Point pts[N];
  for (int i = 0; i < N; i++) z[i] = x[nnz + i];
  in_order(val, z, y[0]);
  for (int i = 0; i < N; i++) z[i] = z[i] + 0.1 * y[0][i];
  reversed(val, z, y[1]);
  for (int i = 0; i < N; i++) z[i] = sin(z[i]) + 0.05 * y[1][i];
  permuted(val, z, y[2]);
  for (int i = 0; i < N; i++) z[i] = z[i] * 0.9 + 0.02 * y[2][i];
  dealt(val, z, y[3]);
  for (int i = 0; i < N; i++) pts[i].x = z[i] + 0.01 * y[3][i], pts[i].tag = i, pts[i].y = cos(z[i]);
  fields(val, pts, y[4]);
  for (int i = 0; i < N; i++) z[i] = pts[i].x * 1.1 - 0.03 * y[4][i], pts[i].x = 0;
  counting(val, z, y[5]);
  for (int i = 0; i < N; i++) z[i] = 0;
  for (int r = 0; r < 6; r++)
    for (int i = 0; i < N; i++) s += cos(0.3 * i + r) * y[r][i] + 0.01 * counts[i];
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
    for (int k = rowptr[r]; k < rowptr[r + 1]; k++) x[k] = (int)ucol[k] == r ? 1.4 : -0.3 + 0.01 * ((r * 7 + (int)ucol[k] * 3) % 5);
  for (int i = 0; i < N; i++) x[nnz + i] = sin(0.7 * i + 0.2);
  CHECK_GRADIENT(f, x, M, 1e-11, 1e-6, 1e-6);
  return check_done();
}
