// Vector code in parallel regions. `simd` forces LLVM to vectorise a loop at any optimisation level,
// so before ad/forced_vectors.c such loops reached the generators as vector loads of shared memory, and
// the reverse sweep added their adjoints through the per-thread buffers as if each were one float: the
// elements at the threads' boundaries lost adjoints (found by a user-style probe; 1 thread was right).
//   pair_products: `parallel for simd reduction(+)` over x[i] * x[i + 1];
//   row_stencil: `parallel for` over rows, an inner `simd reduction(+)` over u[i-1][j] + u[i][j-1] - u[i][j];
//   smoothed: `parallel for simd` writing a 3-point average into an output array, then a sum of squares;
//   vector_types: the program's own vectors (vector_size(16)) loaded from shared memory in a region,
//     which no hint holds back: an object read so keeps no per-thread buffer.
// Gradient against forward tangents along every unit direction (1e-10) and central differences
// (h = 1e-6, 1e-6); 1 to 4 threads, -O2 and -O0; no warning that a loop was not vectorised.
// RUN: %parad-cc %cflags -fopenmp %s -o %t 2>&1 | not grep "not vectorized"
// RUN: OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0 && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 24, R = 6, C = 8 };

__attribute__((noinline)) static double pair_products(const double *x) {
  double q = 0;
#pragma omp parallel for simd reduction(+ : q)
  for (int i = 0; i < N - 1; i++) q += x[i] * x[i + 1];
  return q;
}

__attribute__((noinline)) static double row_stencil(const double *u) {
  double e = 0;
#pragma omp parallel for reduction(+ : e)
  for (int i = 1; i < R; i++) {
#pragma omp simd reduction(+ : e)
    for (int j = 1; j < C; j++) {
      double d = u[(i - 1) * C + j] + u[i * C + j - 1] - u[i * C + j];
      e += d * d;
    }
  }
  return e;
}

static double out[N];

__attribute__((noinline)) static double smoothed(const double *x) {
#pragma omp parallel for simd
  for (int i = 1; i < N - 1; i++) out[i] = (x[i - 1] + 2 * x[i] + x[i + 1]) / 4;
  double s = 0;
  for (int i = 1; i < N - 1; i++) s += out[i] * out[i] * (1 + 0.1 * i);
  return s;
}

typedef double v2 __attribute__((vector_size(16)));

__attribute__((noinline)) static double vector_types(const double *x) {
  double q = 0;
#pragma omp parallel for reduction(+ : q)
  for (int i = 0; i < N - 2; i++) {
    v2 a, b;
    memcpy(&a, x + i, sizeof a);
    memcpy(&b, x + i + 1, sizeof b);
    v2 c = a * b;
    q += c[0] + 0.5 * c[1];
  }
  return q;
}

int main(void) {
  double x[N], u[R * C];
  for (int i = 0; i < N; i++) x[i] = 1 + 0.1 * i + 0.05 * sin(3.0 * i);
  for (int i = 0; i < R * C; i++) u[i] = 1 + 0.1 * i + 0.05 * sin(3.0 * i);
  CHECK_GRADIENT(pair_products, x, N, 1e-10, 1e-6, 1e-6);
  CHECK_GRADIENT(row_stencil, u, R * C, 1e-10, 1e-6, 1e-6);
  CHECK_GRADIENT(smoothed, x, N, 1e-10, 1e-6, 1e-6);
  CHECK_GRADIENT(vector_types, x, N, 1e-10, 1e-6, 1e-6);
  return check_done();
}
