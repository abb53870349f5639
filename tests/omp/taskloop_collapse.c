// Task loops over two loops at once and with a last iteration's value, both modes: collapse(2) with
// num_tasks, a lastprivate scalar, and nogroup followed by an explicit taskwait:
//   y_ij = sin(x_i) x_j + x_i^2 / (1 + j)     (collapse(2), num_tasks(5))
//   last = y_{n-1,n-1} (lastprivate); z_i = cos(x_i) (nogroup, then taskwait)
//   f(x) = sum_ij y_ij^2 / n + last * sum_i z_i.
// Gradients against tangents (1e-12) and central differences (1e-7), at 1, 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 9 };

static double f(const double *x) {
  double y[N][N], z[N], last = 0, s = 0, t = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop collapse(2) num_tasks(5) lastprivate(last) shared(y)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        y[i][j] = sin(x[i]) * x[j] + x[i] * x[i] / (1 + j);
        last = y[i][j];
      }
#pragma omp taskloop nogroup grainsize(2) shared(z)
    for (int i = 0; i < N; i++) z[i] = cos(x[i]);
#pragma omp taskwait
    for (int i = 0; i < N; i++) {
      t += z[i];
      for (int j = 0; j < N; j++) s += y[i][j] * y[i][j] / N;
    }
  }
  return s + last * t;
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.2 * i - 0.7;
  CHECK_GRADIENT(f, x, N, 1e-12, 1e-6, 1e-7);
  return check_done();
}
