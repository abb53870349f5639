// OpenMP tasks with dependences, both modes: a tiled Cholesky factorisation A = L L^T whose tile tasks
// (potrf, trsm, syrk/gemm) are ordered by depend(in/inout) on the tiles, then producer/consumer chains:
// per block a task computing y_b = sin(x_b) (depend out), one combining y_b and y_{b-1} (depend in both,
// out z_b), and one adding z_b into a shared sum (depend inout on the sum). The input x enters the matrix
// (A = M M^T + n I with M's entries from x) and the chains. f(x) = sum_ij w_ij L_ij + sum_b z_b.
// Tangents along every direction against central differences of the same function run without Parad
// (h = 1e-6, 1e-6 relative), and the gradient (each task's reverse sweep run by its creator in the reverse
// order of creation, which the turned-around dependences allow) against the tangents (1e-12), at 1, 2
// and 4 threads at -O2, at 3 threads at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { T = 3, B = 4, NN = T * B, NX = 20, NB = 5 };

typedef double Tile[B][B];

static void potrf(Tile a) { /* a = l l^T in place, lower part */
  for (int j = 0; j < B; j++) {
    for (int k = 0; k < j; k++) a[j][j] -= a[j][k] * a[j][k];
    a[j][j] = sqrt(a[j][j]);
    for (int i = j + 1; i < B; i++) {
      for (int k = 0; k < j; k++) a[i][j] -= a[i][k] * a[j][k];
      a[i][j] /= a[j][j];
    }
  }
}

static void trsm(const Tile l, Tile a) { /* a = a l^-T */
  for (int i = 0; i < B; i++)
    for (int j = 0; j < B; j++) {
      for (int k = 0; k < j; k++) a[i][j] -= a[i][k] * l[j][k];
      a[i][j] /= l[j][j];
    }
}

static void update(const Tile x, const Tile y, Tile a) { /* a -= x y^T */
  for (int i = 0; i < B; i++)
    for (int j = 0; j < B; j++)
      for (int k = 0; k < B; k++) a[i][j] -= x[i][k] * y[j][k];
}

static double f(const double *x) {
  Tile a[T][T];
  double y[NB], z[NB], sum = 0;
  for (int i = 0; i < NN; i++)
    for (int j = 0; j < NN; j++) {
      double s = i == j ? NN : 0;
      for (int k = 0; k < 3; k++) s += sin(x[(i + 7 * k) % NX]) * sin(x[(j + 7 * k) % NX]);
      a[i / B][j / B][i % B][j % B] = s;
    }
#pragma omp parallel
#pragma omp single
  {
    for (int k = 0; k < T; k++) {
#pragma omp task depend(inout : a[k][k])
      potrf(a[k][k]);
      for (int i = k + 1; i < T; i++) {
#pragma omp task depend(in : a[k][k]) depend(inout : a[i][k])
        trsm(a[k][k], a[i][k]);
      }
      for (int i = k + 1; i < T; i++)
        for (int j = k + 1; j <= i; j++) {
#pragma omp task depend(in : a[i][k], a[j][k]) depend(inout : a[i][j])
          update(a[i][k], a[j][k], a[i][j]);
        }
    }
    for (int b = 0; b < NB; b++) {
#pragma omp task depend(out : y[b])
      y[b] = sin(x[b] * x[(b + 3) % NX]);
    }
    for (int b = 0; b < NB; b++) {
#pragma omp task depend(in : y[b], y[(b + NB - 1) % NB]) depend(out : z[b])
      z[b] = y[b] * y[(b + NB - 1) % NB] + exp(0.1 * y[b]);
#pragma omp task depend(in : z[b]) depend(inout : sum)
      sum += z[b] * (b + 1);
    }
  }
  double r = sum;
  for (int i = 0; i < NN; i++)
    for (int j = 0; j <= i; j++) r += (1 + 0.1 * i - 0.05 * j) * a[i / B][j / B][i % B][j % B];
  return r;
}

int main(void) {
  double x[NX], v[NX], g[NX] = {0};
  for (int i = 0; i < NX; i++) x[i] = 0.3 + 0.07 * i;
  __parad_autodiff((void *)f, x, g);
  for (int j = 0; j < NX; j++) {
    for (int i = 0; i < NX; i++) v[i] = i == j;
    double d = __parad_fwddiff((void *)f, x, v);
    CHECK_CLOSE(g[j], d, 1e-12);
    CHECK_CLOSE(d, fd_component(f, x, NX, j, 1e-6), 1e-6);
  }
  return check_done();
}
