// Branches whose way the reverse sweep replays from conditions it recomputes on integer data read again
// in the loop, instead of recording it, and inner loops whose trip count and last counter values it
// recomputes from bounds read again: a CSR product with empty rows, if-then and if-else on a mask, nested
// tests that merge, a loop inside a tested branch, loops up, down, by 2, unsigned, to an inclusive bound
// and a do-while that runs once where its bounds are empty, with bounds from an index array; beside them,
// what stays recorded: a test on two counters (skip the diagonal), a test on a float and a loop bounded by
// a float. Gradient against the tangents (1e-12) and central differences (1e-6), serial and in an OpenMP
// loop at 1 and 2 threads. At -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_peak_bytes(void);

enum { R = 24, NNZ = 64, N = NNZ + R };
static int rowptr[R + 1], col[NNZ], mask[R], lo[R], hi[R];

static double kernel(const double *restrict x, const int *restrict rowptr, const int *restrict col,
                     const int *restrict mask, const int *restrict lo, const int *restrict hi, int parallel) {
  const double *val = x, *v = x + NNZ;
  double s = 0;
#pragma omp parallel for reduction(+ : s) if (parallel)
  for (int i = 0; i < R; i++) {
    double y = 0; /* a CSR row, empty for some rows */
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) y += val[k] * v[col[k]];
    s += y * y;
    if (mask[i] & 1) s += v[i] * v[i]; /* if-then */
    double a;
    if (mask[i] > 2) a = sin(v[i]); /* if-else */
    else a = v[i] * v[(i + 1) % R];
    s += a;
    if (mask[i] > 0) { /* nested, merging */
      if (mask[i] > 4) s += 0.5 * v[i] * a;
      else s -= 0.25 * a * a;
    }
    for (int j = 0; j < 4; j++) { /* counters compared */
      if (j == i % 4) continue;
      s += 0.1 * v[(i + j) % R] * v[i];
    }
    if (mask[i] != 3) /* a loop inside a branch */
      for (int k = 0; k < mask[i]; k++) s += 0.01 * k * v[(i + k) % R] * v[i];
    for (int k = lo[i]; k < hi[i]; k++) s += 0.02 * val[k] * v[i]; /* bounds read again */
    for (int k = hi[i] - 1; k >= lo[i]; k--) s += 0.03 * val[k] * val[k];
    for (int k = lo[i]; k < hi[i] - 1; k += 2) s += 0.01 * cos(val[k]) * v[i];
    for (unsigned u = (unsigned)lo[i]; u < (unsigned)hi[i]; u++) s += 0.02 * val[u] * val[u] * v[i];
    for (int k = lo[i]; k <= hi[i] - 1; k++) s -= 0.01 * val[k] * v[(i + 2) % R];
    int m = lo[i]; /* runs once also where the bounds are empty */
    do s += 0.03 * val[m] * v[(i + 3) % R]; while (++m < hi[i]);
    if (v[i] > 0.3) s += v[i] * v[i] * v[i]; /* a float's test: recorded */
    for (int k = 0; k < 1 + (int)(3 * fabs(v[i])); k++) s += 0.05 * v[i] * val[k % NNZ];
  }
  return s;
}

static int parallel;
static double f_plain(void *ctx, double t) {
  double *x = ctx, y[N];
  memcpy(y, x, sizeof y);
  y[(int)x[N]] = t;
  return kernel(y, rowptr, col, mask, lo, hi, parallel);
}

static void build(void) {
  int nnz = 0;
  for (int i = 0; i < R; i++) {
    rowptr[i] = nnz;
    int len = i % 5 == 2 ? 0 : 1 + (i * 7) % 4; /* every fifth row empty */
    for (int k = 0; k < len && nnz < NNZ; k++) col[nnz++] = (i + 3 * k) % R;
    mask[i] = (i * 5) % 7;
    lo[i] = (i * 3) % NNZ;
    hi[i] = lo[i] + (i % 6);
    if (hi[i] > NNZ) hi[i] = NNZ;
  }
  rowptr[R] = nnz;
}

int main(void) {
  build();
  double x[N + 1];
  for (int i = 0; i < N; i++) x[i] = 0.4 * sin(1.3 * i + 0.2) + 0.05;
  for (parallel = 0; parallel < 2; parallel++) {
    double g[N] = {0};
    __parad_autodiff((void *)kernel, x, g, parad_const, rowptr, parad_const, col, parad_const, mask, parad_const, lo,
                     parad_const, hi, parad_const, parallel);
    for (int j = 0; j < N; j++) {
      double v[N] = {0};
      v[j] = 1;
      double d = __parad_fwddiff((void *)kernel, x, v, parad_const, rowptr, parad_const, col, parad_const, mask,
                                 parad_const, lo, parad_const, hi, parad_const, parallel);
      CHECK_CLOSE(g[j], d, 1e-12);
      x[N] = j;
      CHECK_CLOSE(g[j], fd_central(f_plain, x, x[j], 1e-6), 1e-6);
    }
  }
  return check_done();
}
