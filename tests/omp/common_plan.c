// The common plan (reverse/rev_shared.c): a region's reverse sweep is written three times, once for a
// thread that owns all it read of every object and reads its inputs from copies (every flag of its plan
// known), once for a thread that reads its inputs from copies (the copy flags known), once for any plan;
// each thread's entry chooses. Here the threads of one region choose differently:
//   a gather product whose first half of rows reads only the first half of the vector and whose second
//   half reads across all of it: at 2 threads the first thread owns all it read (the first copy), the
//   second does not (the second), in the same region; at 3 and 4 threads, others mix; the vector is
//   overwritten after each product, so each reverse sweep reads it from a copy;
//   a region over fewer rows than threads: the threads with no row own nothing and copy nothing (the
//   third copy);
//   a reduction, whose sum is added once per thread;
//   a long region whose every thread reads the vector's first elements through an index: no thread owns
//   them, and plain adds of their adjoints from two threads at once would lose some.
// Run again with PARAD_REGION_COPIES=0, where no thread has copies: every thread takes the third copy.
// Taking the first or the second copy for a thread whose flags are not all true crashes or fails checks
// (a lost add, a read of the overwritten vector).
// f(x, v) = sum of x . (A x) over two steps, plus two products of the vector's elements, the long region's
// sum and a weighted sum of squares. Gradients against tangents (1e-11) and central differences (1e-6),
// at 1, 2, 3 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: PARAD_REGION_COPIES=0 OMP_NUM_THREADS=2 %t && PARAD_REGION_COPIES=0 OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 24, K = 3, NNZ = N * K, NZ = N + NNZ, M = 200000 };
static int col[NNZ], few[M];
static double w[N], work[2 * N], c[M];

static void build(void) {
  for (int i = 0; i < N; i++)
    for (int k = 0; k < K; k++) col[i * K + k] = i < N / 2 ? (i + 5 * k) % (N / 2) : (7 * i + 11 * k) % N;
  for (int i = 0; i < N; i++) w[i] = 0.1 * (i % 5) - 0.2;
  for (int i = 0; i < M; i++) few[i] = i % 3, c[i] = 1e-5 * (i % 7);
}

static double f(const double *z) {
  const double *x0 = z, *v = z + N;
  double *x = work, *q = work + N, s = 0;
  for (int i = 0; i < N; i++) x[i] = x0[i];
  for (int step = 0; step < 2; step++) {
#pragma omp parallel for schedule(static) reduction(+ : s)
    for (int i = 0; i < N; i++) {
      double t = 0;
      for (int k = i * K; k < (i + 1) * K; k++) t += v[k] * x[col[k]];
      q[i] = t;
      s += x[i] * t;
    }
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) x[i] = sin(q[i]) + 0.5 * x[i];
  }
#pragma omp parallel for schedule(static)
  for (int i = 0; i < 2; i++) q[i] = x[col[i + 3 * K]] * x[i + 1];
  double r = 0;
#pragma omp parallel for schedule(static) reduction(+ : r)
  for (int i = 0; i < M; i++) r += c[i] * x[few[i]] * x[few[i]];
  double J = s + q[0] - q[1] + r;
  for (int i = 0; i < N; i++) J += w[i] * x[i] * x[i];
  return J;
}

int main(void) {
  build();
  double z[NZ];
  for (int i = 0; i < NZ; i++) z[i] = 0.3 + 0.4 * sin(1.7 * i);
  CHECK_GRADIENT(f, z, NZ, 1e-11, 1e-5, 1e-6);
  return check_done();
}
