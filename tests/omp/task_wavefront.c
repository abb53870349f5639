// A 2-D wavefront of dependent tasks, both modes: one task per tile of a grid, each after its upper and
// left neighbours (depend on the tiles' first elements), as a dynamic-programming sweep computes:
//   a_ij = (a_{i-1,j} + a_{i,j-1}) / 2 + x_{(i+j) mod M} sin(a_{i-1,j-1} + x_i)  (zero outside), tile by tile
//   f(x) = sum_j a_{n-1,j}^2.
// Gradients against tangents (1e-12) and central differences (1e-7), at 1, 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { T = 3, S = 4, G = T * S, M = 7 };

static void tile(double (*a)[G], const double *x, int ti, int tj) {
  for (int i = ti * S; i < ti * S + S; i++)
    for (int j = tj * S; j < tj * S + S; j++) {
      double up = i > 0 ? a[i - 1][j] : 0, left = j > 0 ? a[i][j - 1] : 0, diag = i > 0 && j > 0 ? a[i - 1][j - 1] : 0;
      a[i][j] = (up + left) / 2 + x[(i + j) % M] * sin(diag + x[i % M]);
    }
}

static double f(const double *x) {
  double a[G][G], s = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int ti = 0; ti < T; ti++)
      for (int tj = 0; tj < T; tj++) {
        int ui = ti > 0 ? ti - 1 : ti, lj = tj > 0 ? tj - 1 : tj;
#pragma omp task firstprivate(ti, tj) shared(a) depend(out : a[ti * S][tj * S]) \
    depend(in : a[ui * S][tj * S], a[ti * S][lj * S])
        tile(a, x, ti, tj);
      }
#pragma omp taskwait
    for (int j = 0; j < G; j++) s += a[G - 1][j] * a[G - 1][j];
  }
  return s;
}

int main(void) {
  double x[M];
  for (int i = 0; i < M; i++) x[i] = 0.3 * cos(1.3 * i);
  CHECK_GRADIENT(f, x, M, 1e-12, 1e-6, 1e-7);
  return check_done();
}
