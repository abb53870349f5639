// A thread writes shared data and reads it back before a barrier, and after the barrier other threads read
// it too. Phase 1: each thread writes y_i = sin(x_i) for its block of i and reads y_i back through an index
// the compiler cannot see through (idx_i = i), z_i = y_{idx_i}^2; phase 2 (after the loop's barrier):
// z_i += y_{i-1} y_{i+1}, so the edge elements of each block are read by two threads. In the reverse sweep
// the adjoint of the read-back must be in y's adjoint when the thread reverses its own write of y_i, before
// any barrier: an adjoint the thread kept back for shared data (a private buffer) would arrive too late.
// J = sum_i v_i z_i. Analytic gradient (tolerance 1e-12) and central finite differences (h = 1e-6,
// tolerance 1e-7), at 1, 2, 3 and 4 threads.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);

enum { N = 40 };

__attribute__((noinline)) static void phases(const double *x, double *y, double *z, const int *idx, int n) {
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) {
      y[i] = sin(x[i]);
      double back = y[idx[i]];
      z[i] = back * back;
    }
#pragma omp for schedule(static)
    for (int i = 1; i < n - 1; i++) z[i] += y[i - 1] * y[i + 1];
  }
}

static int IDX[N];
static double V[N], X0[N];

static double objective(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N], y[N], z[N], s = 0;
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  phases(x, y, z, IDX, N);
  for (int i = 0; i < N; i++) s += V[i] * z[i];
  return s;
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N] = {0}, z[N], dz[N], want[N] = {0};
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.17 * i - 2.3, IDX[i] = i, V[i] = dz[i] = cos(0.3 * i + 0.1);
  __parad_autodiff((void *)phases, x, dx, y, dy, z, dz, parad_const, IDX, N);
  /* dJ/dy_j = 2 v_j y_j + v_{j+1} y_{j+2} [1 <= j+1 <= n-2] + v_{j-1} y_{j-2} [1 <= j-1 <= n-2] */
  for (int j = 0; j < N; j++) {
    double yj = sin(X0[j]), dyj = 2 * V[j] * yj;
    if (j + 1 >= 1 && j + 1 <= N - 2) dyj += V[j + 1] * sin(X0[j + 2]);
    if (j - 1 >= 1 && j - 1 <= N - 2) dyj += V[j - 1] * sin(X0[j - 2]);
    want[j] = dyj * cos(X0[j]);
  }
  for (int j = 0; j < N; j++) {
    CHECK_CLOSE(dx[j], want[j], 1e-12);
    CHECK_CLOSE(dx[j], fd_central(objective, &j, 0, 1e-6), 1e-7);
  }
  return check_done();
}
