// A matrix product in a parallel loop, D = alpha A B + beta C with J = sum W . D, its inputs declared
// restrict and never written: the parallel region reads them through variables shared with it (stack
// slots of the caller at -O2), and the reverse sweep reads them again instead of recording B's element
// every inner iteration. Gradients of A, B and C against the analytic ones (tolerance 1e-12) at 1, 2 and
// 4 threads; the tapes of all threads together hold less than one double per multiply-add (recording B
// takes 8 bytes each). At -O2, and at -O0 (where nothing is promised about the tape).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <stddef.h>
#include "check.h"

double __parad_autodiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
enum { M = 40, P = 30, Q = 20 };
static const double alpha = 1.5, beta = 0.8;

__attribute__((noinline)) static double gemm(const double *restrict A, const double *restrict B, const double *restrict C,
                                             double *restrict D, const double *restrict W) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int i = 0; i < M; i++) {
    double *d = D + (size_t)i * Q;
    for (int j = 0; j < Q; j++) d[j] = beta * C[(size_t)i * Q + j];
    for (int k = 0; k < P; k++) {
      double a = alpha * A[(size_t)i * P + k];
      for (int j = 0; j < Q; j++) d[j] += a * B[(size_t)k * Q + j];
    }
    for (int j = 0; j < Q; j++) J += W[(size_t)i * Q + j] * d[j];
  }
  return J;
}

int main(void) {
  static double A[M * P], B[P * Q], C[M * Q], D[M * Q], W[M * Q], dA[M * P], dB[P * Q], dC[M * Q], dD[M * Q];
  for (int i = 0; i < M * P; i++) A[i] = 0.01 * (i % 13) - 0.05;
  for (int i = 0; i < P * Q; i++) B[i] = 0.02 * (i % 7) - 0.06;
  for (int i = 0; i < M * Q; i++) C[i] = 0.03 * (i % 5), W[i] = 1 - 0.001 * i;
  size_t before = parad_tape_recorded_bytes();
  __parad_autodiff((void *)gemm, A, dA, B, dB, C, dC, D, dD, parad_const, W);
  size_t taped = parad_tape_recorded_bytes() - before;
  for (int i = 0; i < M; i++)
    for (int k = 0; k < P; k++) {
      double g = 0;
      for (int j = 0; j < Q; j++) g += alpha * W[i * Q + j] * B[k * Q + j];
      CHECK_CLOSE(dA[i * P + k], g, 1e-12);
    }
  for (int k = 0; k < P; k++)
    for (int j = 0; j < Q; j++) {
      double g = 0;
      for (int i = 0; i < M; i++) g += alpha * A[i * P + k] * W[i * Q + j];
      CHECK_CLOSE(dB[k * Q + j], g, 1e-12);
    }
  for (int i = 0; i < M * Q; i++) CHECK_CLOSE(dC[i], beta * W[i], 1e-12);
#ifdef __OPTIMIZE__
  if (taped >= 8 * (size_t)M * P * Q) printf("FAIL: the tapes held %zu bytes (B recorded?)\n", taped), check_failures++;
#endif
  (void)taped;
  return check_done();
}
