// A tiled LU factorisation without pivoting built from dependent tasks, both modes: per step k, the
// diagonal tile factorised, the tiles right of it and below it solved against it, and the trailing tiles
// updated, each task ordered by depend clauses on the tiles it reads and writes (depend on each tile's
// first element). A = 4 I + x-dependent entries (diagonally dominant, so no pivoting is needed);
// f(x) = sum_ij W_ij (L + U)_ij of the factors stored in place.
// Gradients against tangents (1e-11) and central differences (1e-6), at 1, 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { B = 3, T = 3, N = B * T, M = 6 };
typedef double Tile[B][B];

static void getrf(Tile a) {
  for (int k = 0; k < B; k++)
    for (int i = k + 1; i < B; i++) {
      a[i][k] /= a[k][k];
      for (int j = k + 1; j < B; j++) a[i][j] -= a[i][k] * a[k][j];
    }
}
/* a <- L^-1 a, L the unit lower triangle of d */
static void solve_row(Tile d, Tile a) {
  for (int k = 0; k < B; k++)
    for (int i = k + 1; i < B; i++)
      for (int j = 0; j < B; j++) a[i][j] -= d[i][k] * a[k][j];
}
/* a <- a U^-1, U the upper triangle of d */
static void solve_col(Tile d, Tile a) {
  for (int k = 0; k < B; k++)
    for (int i = 0; i < B; i++) {
      a[i][k] /= d[k][k];
      for (int j = k + 1; j < B; j++) a[i][j] -= a[i][k] * d[k][j];
    }
}
static void gemm(Tile l, Tile u, Tile c) {
  for (int i = 0; i < B; i++)
    for (int j = 0; j < B; j++)
      for (int k = 0; k < B; k++) c[i][j] -= l[i][k] * u[k][j];
}

static double f(const double *x) {
  Tile a[T][T];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) a[i / B][j / B][i % B][j % B] = (i == j ? 4 : 0) + sin(x[(i + 2 * j) % M] + 0.1 * i) / 2;
  double s = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int k = 0; k < T; k++) {
#pragma omp task depend(inout : a[k][k][0][0]) shared(a) firstprivate(k)
      getrf(a[k][k]);
      for (int j = k + 1; j < T; j++) {
#pragma omp task depend(in : a[k][k][0][0]) depend(inout : a[k][j][0][0]) shared(a) firstprivate(k, j)
        solve_row(a[k][k], a[k][j]);
#pragma omp task depend(in : a[k][k][0][0]) depend(inout : a[j][k][0][0]) shared(a) firstprivate(k, j)
        solve_col(a[k][k], a[j][k]);
      }
      for (int i = k + 1; i < T; i++)
        for (int j = k + 1; j < T; j++) {
#pragma omp task depend(in : a[i][k][0][0], a[k][j][0][0]) depend(inout : a[i][j][0][0]) shared(a) firstprivate(i, j, k)
          gemm(a[i][k], a[k][j], a[i][j]);
        }
    }
#pragma omp taskwait
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) s += cos(0.3 * i - 0.2 * j) * a[i / B][j / B][i % B][j % B];
  }
  return s;
}

int main(void) {
  double x[M];
  for (int i = 0; i < M; i++) x[i] = 0.4 * i - 1;
  CHECK_GRADIENT(f, x, M, 1e-11, 1e-6, 1e-6);
  return check_done();
}
