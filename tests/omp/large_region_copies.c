// A CG iteration over vectors large enough that each thread's copies of what its regions read (the
// product's gathered p, the streamed p, q and r of the updates) are 64 KB and more, which the runtime
// writes with streaming stores: N = 30,011 rows (an odd length, so no copy is a whole number of cache
// lines), the vectors placed one double past a 16-byte boundary, a 1-D 3-point matrix in CSR form.
// J(values, b) = sum_i w_i x_i after K iterations. The gradient against the forward tangent along a random
// direction (relative 1e-9) and central differences (h = 1e-6, 1e-6) in 8 components; at 1 to 3 threads,
// -O0 too, and under valgrind at 2 threads (no invalid access in the copies).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: OMP_NUM_THREADS=2 valgrind -q --error-exitcode=9 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 30011, K = 3, NNZ = 3 * N - 2 };
static int rowptr[N + 1], col[NNZ];
static double w[N], *work, *dwork;

static double cg(const double *restrict val, const double *restrict b, double *restrict work) {
  double *x = work + 1, *r = x + N, *p = r + N, *q = p + N, rr = 0; /* 8 bytes past a 16-byte boundary */
#pragma omp parallel for schedule(static) reduction(+ : rr)
  for (int i = 0; i < N; i++) x[i] = 0, r[i] = p[i] = b[i], rr += b[i] * b[i];
  for (int it = 0; it < K; it++) {
    double pq = 0;
#pragma omp parallel for schedule(static) reduction(+ : pq)
    for (int i = 0; i < N; i++) {
      double s = 0;
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * p[col[k]];
      q[i] = s;
      pq += p[i] * s;
    }
    double alpha = rr / pq, rr_new = 0;
#pragma omp parallel for schedule(static) reduction(+ : rr_new)
    for (int i = 0; i < N; i++) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      rr_new += r[i] * r[i];
    }
    double beta = rr_new / rr;
    rr = rr_new;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) p[i] = r[i] + beta * p[i];
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += w[i] * x[i];
  return J;
}

static double in[NNZ + N], grad[NNZ + N], dir[NNZ + N];

static double J_at(const double *v) { return cg(v, v + NNZ, work); }

int main(void) {
  int nz = 0;
  for (int i = 0; i < N; i++) {
    rowptr[i] = nz;
    for (int d = -1; d <= 1; d++)
      if (i + d >= 0 && i + d < N) col[nz] = i + d, in[nz++] = d ? -1 + 0.01 * ((i * 7 + d) % 5) : 4.2;
  }
  rowptr[N] = nz;
  srand(3);
  for (int i = 0; i < N; i++) in[NNZ + i] = sin(0.37 * i), w[i] = cos(0.11 * i);
  for (int i = 0; i < NNZ + N; i++) dir[i] = (double)rand() / RAND_MAX - 0.5;
  work = calloc(4 * N + 2, sizeof *work), dwork = calloc(4 * N + 2, sizeof *dwork);
  __parad_autodiff((void *)cg, in, grad, in + NNZ, grad + NNZ, work, dwork);
  double along = 0;
  for (int i = 0; i < NNZ + N; i++) along += grad[i] * dir[i];
  for (int i = 0; i < 4 * N + 2; i++) dwork[i] = 0;
  double tangent = __parad_fwddiff((void *)cg, in, dir, in + NNZ, dir + NNZ, work, dwork);
  CHECK_CLOSE(along, tangent, 1e-9);
  static const int comps[8] = {0, 1, NNZ / 2, NNZ - 1, NNZ, NNZ + 1, NNZ + N / 3, NNZ + N - 1};
  for (int c = 0; c < 8; c++) CHECK_CLOSE(grad[comps[c]], fd_component(J_at, in, NNZ + N, comps[c], 1e-6), 1e-6);
  free(work), free(dwork);
  return check_done();
}
