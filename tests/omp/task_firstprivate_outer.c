// A task's firstprivate array or struct of doubles declared outside the parallel region: clang copies it
// into the task's block with a memcpy from the region's argument, and the block's header is read as
// pointers in the creating function, so the copy was taken for a copy of pointers and the adjoint of
// what it moved was dropped (the gradient with respect to k was 0, at -O0 and -O2).
//   arr:  double p[8] = k (i + 1), y = sum_i p_i x_0, a task per chunk of x copies p;
//   mixed: struct { double k; const double *xs; } copied into the task, y = k sum x_i.
// Gradients against the analytic derivative (1e-12), at 1, 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);

enum { N = 12 };

static double arr(const double *x, double k) {
  double y[N], p[8], s = 0;
  for (int i = 0; i < 8; i++) p[i] = k * (i + 1);
#pragma omp parallel
#pragma omp single
  for (int c = 0; c < N; c += 3) {
#pragma omp task firstprivate(p, c) shared(y)
    for (int j = c; j < c + 3; j++) {
      double t = 0;
      for (int i = 0; i < 8; i++) t += p[i] * x[j];
      y[j] = t;
    }
  }
  for (int j = 0; j < N; j++) s += y[j];
  return s;
}

typedef struct { double k; const double *xs; } Params;

static double mixed(const double *x, double k) {
  double y[N], s = 0;
  Params P = {k, x};
#pragma omp parallel
#pragma omp single
  for (int c = 0; c < N; c += 4) {
#pragma omp task firstprivate(P, c) shared(y)
    for (int j = c; j < c + 4; j++) y[j] = P.k * P.xs[j];
  }
  for (int j = 0; j < N; j++) s += y[j];
  return s;
}

int main(void) {
  double x[N], sx = 0, k = 1.5;
  for (int i = 0; i < N; i++) x[i] = 0.1 * i - 0.3, sx += x[i];
  double g[N] = {0};
  double gk = __parad_autodiff((void *)arr, x, g, k);
  CHECK_CLOSE(gk, 36 * sx, 1e-12);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], 36 * k, 1e-12);
  double h[N] = {0};
  gk = __parad_autodiff((void *)mixed, x, h, k);
  CHECK_CLOSE(gk, sx, 1e-12);
  for (int i = 0; i < N; i++) CHECK_CLOSE(h[i], k, 1e-12);
  return check_done();
}
