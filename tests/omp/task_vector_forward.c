// Vector forward mode (three directions at once) through tasks and a task loop: the task's block carries
// one shadow word per direction, and a task loop's chunks copy each. f(x) = sum_i sin(x_i) x_{i+1} over a
// task loop into y, then dependent tasks folding y into a sum. The three tangents of one call against three
// width-1 calls (1e-12) and central differences (1e-7 relative), at 1, 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

typedef struct {
  double d[3];
} Three;
double __parad_fwddiff(void *, ...);
Three __parad_fwddiff3(void *, ...) __asm__("__parad_fwddiff");

enum { N = 21 };

static double f(const double *x) {
  double y[N], s = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop grainsize(5)
    for (int i = 0; i < N; i++) y[i] = sin(x[i]) * x[(i + 1) % N];
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i) depend(inout : s) shared(y)
      s = s * 0.9 + y[i] * y[i];
    }
  }
  return s;
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.2 * i - 1.5;
  for (int j = 0; j + 2 < N; j += 3) {
    double v[3][N] = {{0}};
    for (int l = 0; l < 3; l++) v[l][j + l] = 1;
    Three t = __parad_fwddiff3((void *)f, parad_width, 3, x, v[0], v[1], v[2]);
    for (int l = 0; l < 3; l++) {
      CHECK_CLOSE(t.d[l], __parad_fwddiff((void *)f, x, v[l]), 1e-12);
      CHECK_CLOSE(t.d[l], fd_component(f, x, N, j + l, 1e-6), 1e-7);
    }
  }
  return check_done();
}
