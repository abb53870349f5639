// Data one parallel region computes and the next only reads: centred columns T = X - mean (region 1),
// then their products T_j . T_k (region 2). Nothing writes T after region 2 starts, so its reverse reads
// T again instead of recording two doubles per multiply-add; the tape holds less than one byte per
// multiply-add. The same shape where T is written again after the reads (region 3 scales it in place,
// and the function reads the scaled values): there region 2's reads must be recorded (the reverse sweep
// would see the scaled T), and a serial loop of the function's own that reads U before a later loop
// writes it. Gradients against the analytic ones (tolerance 1e-12) at 1, 2 and 4 threads, at -O2 and -O0.
// dJ/dX_ij for J = sum_{j<=k} W_jk T_j.T_k: with G_j = sum_k S_jk T_k (S = W + W^T, diagonal doubled),
// dJ/dX_ij = G_j[i] - mean_i' G_j[i']. The second function: J2 = J(T) with T scaled by c afterwards and
// sum_ij T_ij^2 (scaled) added: dJ2/dT = G + 2 c^2 T, then centred the same way.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0 0
#include <stddef.h>
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
enum { N = 60, M = 24 };
static const double c = 0.7;

/* The two regions, inlined into each gradient's own function (a region of a callee would be another
 * question: whether the callee's caller writes T later). */
__attribute__((always_inline)) static inline double centre_and_multiply(const double *restrict X, double *restrict T,
                                                                        const double *restrict W) {
#pragma omp parallel for schedule(static)
  for (int j = 0; j < M; j++) {
    double s = 0;
    for (int i = 0; i < N; i++) s += X[i * M + j];
    for (int i = 0; i < N; i++) T[j * N + i] = X[i * M + j] - s / N;
  }
  double J = 0;
#pragma omp parallel for schedule(dynamic, 2) reduction(+ : J)
  for (int j = 0; j < M; j++)
    for (int k = j; k < M; k++) {
      double s = 0;
      for (int i = 0; i < N; i++) s += T[j * N + i] * T[k * N + i];
      J += W[j * M + k] * s;
    }
  return J;
}

__attribute__((noinline)) static double products(const double *restrict X, double *restrict T, const double *restrict W) {
  return centre_and_multiply(X, T, W);
}

__attribute__((noinline)) static double products_rewritten(const double *restrict X, double *restrict T,
                                                           const double *restrict W, double *restrict U) {
  double J = centre_and_multiply(X, T, W);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N * M; i++) T[i] *= c;
  for (int i = 0; i < N * M; i++) U[i] = T[i];
  for (int i = 0; i < N * M; i++) J += U[i] * T[i]; /* reads U, which the next loop overwrites */
  for (int i = 0; i < N * M; i++) U[i] = 0;
  return J;
}

static double X[N * M], W[M * M], T[N * M], U[N * M], dX[N * M], dT[N * M], dU[N * M];

/* The analytic gradient of J with respect to X, given dJ/dT (centring's transpose). */
static void centred(const double *gT, double *want) {
  for (int j = 0; j < M; j++) {
    double mean = 0;
    for (int i = 0; i < N; i++) mean += gT[j * N + i] / N;
    for (int i = 0; i < N; i++) want[i * M + j] = gT[j * N + i] - mean;
  }
}

int main(int argc, char **argv) {
  int check_tape = argc < 2; /* at -O0 nothing is promised about the tape */
  static double T0[N * M], G[N * M], want[N * M];
  for (int i = 0; i < N * M; i++) X[i] = sin(0.37 * i + 0.2) + 0.01 * (i % 7);
  for (int i = 0; i < M * M; i++) W[i] = cos(0.11 * i);
  for (int j = 0; j < M; j++) {
    double s = 0;
    for (int i = 0; i < N; i++) s += X[i * M + j];
    for (int i = 0; i < N; i++) T0[j * N + i] = X[i * M + j] - s / N;
  }
  for (int j = 0; j < M; j++)
    for (int k = j; k < M; k++)
      for (int i = 0; i < N; i++) G[j * N + i] += W[j * M + k] * T0[k * N + i], G[k * N + i] += W[j * M + k] * T0[j * N + i];

  size_t before = parad_tape_recorded_bytes();
  __parad_autodiff((void *)products, X, dX, T, dT, parad_const, W);
  size_t bytes = parad_tape_recorded_bytes() - before;
  centred(G, want);
  for (int i = 0; i < N * M; i++) CHECK_CLOSE(dX[i], want[i], 1e-12);
  if (check_tape) CHECK_CLOSE((double)(bytes < (size_t)N * M * M / 2), 1, 0);

  static double gT[N * M];
  for (int i = 0; i < N * M; i++) gT[i] = G[i] + 2 * c * c * T0[i], dX[i] = dT[i] = dU[i] = 0;
  __parad_autodiff((void *)products_rewritten, X, dX, T, dT, parad_const, W, U, dU);
  centred(gT, want);
  for (int i = 0; i < N * M; i++) CHECK_CLOSE(dX[i], want[i], 1e-12);
  return check_done();
}
