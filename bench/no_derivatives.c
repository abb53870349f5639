/* A program without derivative calls, for comparing parad-cc -O2 with clang -O2: scripts/bench builds it
 * with both, checks that the object files are identical, and runs both binaries, which print the time
 * of the same kernels (a matrix product, a loop of math calls) and a checksum. */
#include <math.h>
#include <stdio.h>

#include "timing.h"

enum { N = 200, M = 100000 };
static double a[N * N], b[N * N], c[N * N], v[M];
static volatile double sink;

__attribute__((noinline)) static void matmul(void *ctx) {
  (void)ctx;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < N; k++) s += a[i * N + k] * b[k * N + j];
      c[i * N + j] = s;
    }
  sink = c[N + 1];
}

__attribute__((noinline)) static void mathloop(void *ctx) {
  (void)ctx;
  double s = 0;
  for (int i = 0; i < M; i++) s += exp(-v[i] * v[i]) * cos(v[i]);
  sink = s;
}

int main(void) {
  for (int i = 0; i < N * N; i++) a[i] = sin(i), b[i] = cos(i);
  for (int i = 0; i < M; i++) v[i] = 1e-4 * i;
  double t1 = seconds_per_call(matmul, NULL, 7, 0.3);
  double t2 = seconds_per_call(mathloop, NULL, 7, 0.3);
  double check = 0;
  for (int i = 0; i < N * N; i++) check += c[i];
  printf("matmul %d: %.3f ms   math loop %d: %.3f ms   checksum %.17g\n", N, t1 * 1e3, M, t2 * 1e3, check);
  return 0;
}
