// OpenMP tasks created recursively inside tasks, both modes: a divide-and-conquer sum where each half is a
// task with a shared result, a taskwait joins them, and a final clause stops deferring small halves. The
// left half of each split is weighted by (1 + mid / 100), so a leaf's term carries the product of the
// weights on its path. f(x) = sum_i w_i x_i^2 sin(x_i); tangents along every unit direction and the
// gradient (each task reversed on its own tape, inside its parent's reverse sweep) against that derivative
// computed by a plain recursion (1e-12) and central differences (h = 1e-6, 1e-7 relative), at 1, 2 and 4
// threads at -O2, at 3 threads at -O0 (where the bounds a task passes on to its call are read through the
// function clang makes to find a task's private copies: the callee uses them only as integers).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 61 };

static double tree_sum(const double *x, int lo, int hi) {
  if (hi - lo <= 3) {
    double s = 0;
    for (int i = lo; i < hi; i++) s += x[i] * x[i] * sin(x[i]);
    return s;
  }
  int mid = (lo + hi) / 2;
  double a, b;
#pragma omp task shared(a) final(hi - lo < 12)
  a = tree_sum(x, lo, mid);
#pragma omp task shared(b) final(hi - lo < 12)
  b = tree_sum(x, mid, hi);
#pragma omp taskwait
  return a * (1 + mid / 100.0) + b;
}

static double f(const double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  s = tree_sum(x, 0, n);
  return s;
}

/* the weight of x_i: the product of the left halves' weights on its path */
static double weight(int i, int lo, int hi) {
  if (hi - lo <= 3) return 1;
  int mid = (lo + hi) / 2;
  return i < mid ? (1 + mid / 100.0) * weight(i, lo, mid) : weight(i, mid, hi);
}

static double f_all(const double *y) { return f(y, N); }

int main(void) {
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.05 * i - 1.1;
  double g[N] = {0};
  __parad_autodiff((void *)f, x, g, N);
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) v[i] = i == j;
    double d = __parad_fwddiff((void *)f, x, v, N);
    CHECK_CLOSE(d, weight(j, 0, N) * (2 * x[j] * sin(x[j]) + x[j] * x[j] * cos(x[j])), 1e-12);
    CHECK_CLOSE(g[j], d, 1e-12);
    CHECK_CLOSE(d, fd_component(f_all, x, N, j, 1e-6), 1e-7);
  }
  return check_done();
}
