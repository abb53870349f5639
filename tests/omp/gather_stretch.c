// A gather's clean stretch: in the reverse sweep of a sparse product, a row whose column indices lie in
// the stretch of the index array the runtime found gathering only from the thread's own part adds
// plainly, with no test per nonzero (reverse/rev_shared.c "a gather's clean stretch"). The rows around
// it are tested nonzero by nonzero as before. The shapes, each in a region of its own:
//   a band (rows read p[i-3..i+3]): rows at the edges of each thread's share read what a neighbour reads;
//   the band with long rows (longer than the runtime's blocks of indices) that also read the element
//     before their thread's share (shared with the thread before), last or first: such rows are not
//     clean, though one end of them lies in a block that is, and they break the stretch into pieces;
//   rows in a permuted order (every run of the index array breaks off: the longest is kept);
//   a 16-bit index into a vector of structs, two fields gathered;
//   the band again after the program rewrote the column indices (the index array's blocks of the region
//     before must not be reused).
// f(x) = weighted sums of the results; x = the matrix's values and the vector gathered from. Gradients
// against tangents (1e-11) and central differences (1e-6), at 1, 2, 3 and 4 threads at -O2 and 3 at -O0.
// A row wrongly taken as clean adds plainly where another thread adds too: a race, which a test would
// catch only by chance. So built with PARAD_CHECK_CLEAN (`check`), every plain add of a clean row is
// checked against the thread's own part (the program stops on one outside it), and at 2 to 4 threads
// some adds must have been clean. The product must ask for its stretch.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: env PARAD_CHECK_CLEAN=1 %parad-cc %cflags -fopenmp %s -o %t.check -lm && OMP_NUM_THREADS=2 %t.check check && OMP_NUM_THREADS=3 %t.check check && OMP_NUM_THREADS=4 %t.check check
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: %parad-cc %cflags -fopenmp -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: define internal fastcc void @reverse.par.band.omp_outlined
// IR: call void @__parad_rt_gather_stretch(
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);
extern unsigned long long __parad_rt_clean_adds; /* PARAD_CHECK_CLEAN's count */

enum { N = 300, W = 3, LONG = 70, MAXNZ = (2 * W + 1) * N, M = MAXNZ - W * (W + 1) + N };
static int rowptr[N + 1], holed_ptr[N + 1], nnz, holed_nnz, perm[N];
static int col[MAXNZ], holed[MAXNZ + 2 * (N / 37 + 1) * (LONG + 1)];
static short scol[MAXNZ];

typedef struct {
  double a;
  int tag;
  double b;
} Pair;

/* The band; in `holed`, every 37th row (and every 37th from another start) is long: it also reads its
 * own element LONG times, more than a block of indices (runtime/omp.c), and, last (first), the element
 * before its thread's share, for `threads` threads of a static schedule (the first thread's rows read
 * element 0 again). Such a row's first (last) indices lie in blocks that gather only from the thread's own
 * part. */
static void build(int threads) {
  nnz = holed_nnz = 0;
  for (int i = 0; i < N; i++) {
    rowptr[i] = nnz, holed_ptr[i] = holed_nnz;
    int share = (N + threads - 1) / threads, first = i / share * share, before = first > 0 ? first - 1 : 0;
    if (i % 37 == 23) holed[holed_nnz++] = before;
    for (int j = i - W; j <= i + W; j++) {
      if (j < 0 || j >= N) continue;
      col[nnz] = j, scol[nnz++] = (short)j;
      holed[holed_nnz++] = j;
    }
    for (int r = 0; (i % 37 == 5 || i % 37 == 23) && r < LONG; r++) holed[holed_nnz++] = i;
    if (i % 37 == 5) holed[holed_nnz++] = before;
  }
  rowptr[N] = nnz, holed_ptr[N] = holed_nnz;
  for (int i = 0; i < N; i++) perm[i] = (7 * i + 3) % N;
}

__attribute__((noinline)) static void band(const double *val, const double *z, double *y) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * z[col[k]];
    y[i] = sin(s);
  }
}

__attribute__((noinline)) static void with_holes(const double *val, const double *z, double *y) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = holed_ptr[i]; k < holed_ptr[i + 1]; k++) s += val[k % nnz] * z[holed[k]];
    y[i] = sin(0.05 * s);
  }
}

__attribute__((noinline)) static void permuted(const double *val, const double *z, double *y) {
#pragma omp parallel for schedule(static)
  for (int ii = 0; ii < N; ii++) {
    int i = perm[ii];
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * z[col[k]] * (1 + 0.3 * z[col[k]]);
    y[i] = exp(0.3 * s);
  }
}

__attribute__((noinline)) static void pairs(const double *val, const Pair *p, double *y) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * p[scol[k]].a * p[scol[k]].b;
    y[i] = s;
  }
}

/* the band's columns mirrored (row i reads what row N-1-i read), then put back */
static void mirror(void) {
  for (int k = 0; k < nnz; k++) col[k] = N - 1 - col[k];
}

static double f(const double *x) {
  const double *val = x;
  double z[N], y[5][N], s = 0;
  Pair p[N];
  for (int i = 0; i < N; i++) z[i] = x[nnz + i];
  band(val, z, y[0]);
  for (int i = 0; i < N; i++) z[i] = z[i] + 0.1 * y[0][i];
  with_holes(val, z, y[1]);
  for (int i = 0; i < N; i++) z[i] = sin(z[i]) + 0.05 * y[1][i];
  permuted(val, z, y[2]);
  for (int i = 0; i < N; i++) p[i].a = z[i] * 0.9 + 0.02 * y[2][i], p[i].tag = i, p[i].b = cos(z[i]);
  pairs(val, p, y[3]);
  for (int i = 0; i < N; i++) z[i] = p[i].a * 1.1 - 0.03 * y[3][i], p[i].a = 0;
  mirror();
  band(val, z, y[4]);
  mirror();
  for (int r = 0; r < 5; r++)
    for (int i = 0; i < N; i++) s += cos(0.3 * i + r) * y[r][i];
  return s;
}

static double x[M];

int main(int argc, char **argv) {
  int checking = argc > 1 && !strcmp(argv[1], "check");
  build(omp_get_max_threads());
  if (nnz + N != M) {
    printf("FAIL: %d nonzeros\n", nnz);
    return 1;
  }
  for (int r = 0; r < N; r++)
    for (int k = rowptr[r]; k < rowptr[r + 1]; k++) x[k] = col[k] == r ? 1.4 : -0.1 + 0.01 * ((r * 7 + col[k] * 3) % 5);
  for (int i = 0; i < N; i++) x[nnz + i] = sin(0.7 * i + 0.2);
  CHECK_GRADIENT(f, x, M, 1e-11, 1e-6, 1e-6);
  if (checking) CHECK_CLOSE((double)(__parad_rt_clean_adds > 0), 1, 0); /* the stretches were used */
  return check_done();
}
