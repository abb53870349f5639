// Reads of one array in one loop that go different ways in the reverse sweep: the lower triangle of
// S = A A^T, parallel over S's rows i (dynamic schedule: rows are handed out in pairs), each inner loop
// reading row i of A (read again only by the thread that owns row i, unless another thread's rows j
// reach it) and row j <= i (rows other threads also read). Per run of the inner loop, each read is decided
// on its own: row i's adjoints plainly into dA, row j's into the thread's private buffer, or per element
// where neither holds (rev_shared.c). Then a 2-D five-point stencil reading rows r-1, r, r+1 of u, where a
// thread's first and last rows read its neighbours' rows.
// J = sum_{j <= i} W_ij S_ij + sum_rc V_rc (stencil u)_rc. Analytic gradient (tolerance 1e-12):
// dJ/dA_pk = sum_{j <= p} W_pj A_jk + sum_{i >= p} W_ip A_ik, and the stencil's transpose; checked at
// 1, 2, 3 and 4 threads, at -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);

enum { N = 37, M = 29, R = 23, C = 31 };

__attribute__((noinline)) static double lower(const double *restrict A, const double *restrict W, double *restrict u,
                                              double *restrict out, const double *restrict V) {
  double J = 0;
#pragma omp parallel for schedule(dynamic, 2) reduction(+ : J)
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      double s = 0;
      for (int k = 0; k < M; k++) s += A[i * M + k] * A[j * M + k];
      J += W[i * N + j] * s;
    }
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int r = 1; r < R - 1; r++)
    for (int c = 1; c < C - 1; c++) {
      out[r * C + c] = 0.5 * u[r * C + c] + 0.125 * (u[(r - 1) * C + c] + u[(r + 1) * C + c] + u[r * C + c - 1] + u[r * C + c + 1]);
      J += V[r * C + c] * out[r * C + c];
    }
  return J;
}

static double A[N * M], W[N * N], U[R * C], V[R * C], OUT[R * C];

int main(void) {
  static double dA[N * M], du[R * C], dout[R * C], want[N * M], wantu[R * C];
  for (int i = 0; i < N * M; i++) A[i] = sin(0.37 * i + 0.2);
  for (int i = 0; i < N * N; i++) W[i] = cos(0.11 * i);
  for (int i = 0; i < R * C; i++) U[i] = sin(0.05 * i) + 0.3, V[i] = cos(0.07 * i + 1);
  __parad_autodiff((void *)lower, A, dA, parad_const, W, U, du, OUT, dout, parad_const, V);
  double J = lower(A, W, U, OUT, V);
  double Jwant = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      double s = 0;
      for (int k = 0; k < M; k++) s += A[i * M + k] * A[j * M + k];
      Jwant += W[i * N + j] * s;
      for (int k = 0; k < M; k++) want[i * M + k] += W[i * N + j] * A[j * M + k], want[j * M + k] += W[i * N + j] * A[i * M + k];
    }
  for (int r = 1; r < R - 1; r++)
    for (int c = 1; c < C - 1; c++) {
      double v = V[r * C + c];
      Jwant += v * (0.5 * U[r * C + c] + 0.125 * (U[(r - 1) * C + c] + U[(r + 1) * C + c] + U[r * C + c - 1] + U[r * C + c + 1]));
      wantu[r * C + c] += 0.5 * v;
      wantu[(r - 1) * C + c] += 0.125 * v, wantu[(r + 1) * C + c] += 0.125 * v;
      wantu[r * C + c - 1] += 0.125 * v, wantu[r * C + c + 1] += 0.125 * v;
    }
  CHECK_CLOSE(J, Jwant, 1e-12);
  for (int i = 0; i < N * M; i++) CHECK_CLOSE(dA[i], want[i], 1e-12);
  for (int i = 0; i < R * C; i++) CHECK_CLOSE(du[i], wantu[i], 1e-12);
  return check_done();
}
