// A 2-D five-point stencil with a parallel loop over rows, T = 4 steps between two buffers: the reverse
// sweep sums the adjoints of each row's three neighbours u[i][j-1], u[i][j], u[i][j+1] in a window of
// registers (reverse/rev_window.c), and adds them into the shadow plainly on rows only this thread read
// and atomically on rows next to another thread's (the window's flushes follow the same choice). Grids of
// 7 x 3 (rows of one interior element: the window's first element is its last) and 9 x 11; the gradient
// with respect to the initial field and the coefficient is checked against central finite differences
// (h = 1e-6, tolerance 1e-7), with 1, 2 and 4 threads. The build prints that the row loop got a window.
// RUN: env PARAD_PLAN=1 %parad-cc %cflags -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// CHECK: adjoint window in step.omp_outlined: 3 loads over 3 elements, checked per run
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
extern int parad_const;

enum { MAXR = 9, MAXC = 11, T = 4 };

__attribute__((noinline)) static void step(const double *u, double *v, double kappa, int rows, int cols) {
#pragma omp parallel for schedule(static)
  for (int i = 1; i < rows - 1; i++)
    for (int j = 1; j < cols - 1; j++) {
      const double *c = u + i * cols + j;
      v[i * cols + j] = c[0] + kappa * (c[-cols] + c[cols] + 0.9 * c[-1] + 1.1 * c[1] - 4 * c[0]) - 0.01 * c[0] * c[0];
    }
}

__attribute__((noinline)) static double heat(const double *u0, double kappa, int rows, int cols) {
  double a[MAXR * MAXC], b[MAXR * MAXC];
  memcpy(a, u0, sizeof(double) * rows * cols);
  memcpy(b, u0, sizeof(double) * rows * cols);
  double *x = a, *y = b;
  for (int t = 0; t < T; t++) {
    step(x, y, kappa, rows, cols);
    double *s = x;
    x = y, y = s;
  }
  double e = 0;
  for (int k = 0; k < rows * cols; k++) e += (1 + 0.01 * k) * x[k] * x[k];
  return e;
}

static double U0[MAXR * MAXC];
typedef struct { int k, rows, cols; } Ctx;

/* along unit direction k of (u0, kappa); k = rows * cols is kappa */
static double along(void *p, double t) {
  Ctx *c = p;
  double u[MAXR * MAXC];
  int n = c->rows * c->cols;
  for (int i = 0; i < n; i++) u[i] = U0[i] + (i == c->k) * t;
  return heat(u, 0.15 + (c->k == n) * t, c->rows, c->cols);
}

int main(void) {
  static const int shapes[][2] = {{7, 3}, {9, 11}};
  for (int s = 0; s < 2; s++) {
    int rows = shapes[s][0], cols = shapes[s][1], n = rows * cols;
    for (int k = 0; k < n; k++) U0[k] = 0.5 + 0.4 * sin(0.7 * k);
    double du[MAXR * MAXC] = {0};
    double dkappa = __parad_autodiff((void *)heat, U0, du, 0.15, parad_const, rows, parad_const, cols);
    for (int k = 0; k <= n; k++) {
      Ctx c = {k, rows, cols};
      CHECK_CLOSE(k < n ? du[k] : dkappa, fd_central(along, &c, 0, 1e-6), 1e-7);
    }
  }
  return check_done();
}
