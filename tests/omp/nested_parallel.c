// Nested parallel regions two levels deep (omp_set_max_active_levels(2)), both modes: an outer parallel
// loop over rows whose body runs an inner parallel loop with a reduction over the row, each level with
// two threads. out = sum_i (i+1) (sum_j (j+1) sin x_ij)^2. Gradient against the analytic one (1e-12),
// the tangent along one direction against the gradient (1e-12), at 1, 2 and 4 threads at -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=1 %t0 && OMP_NUM_THREADS=2 %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include <omp.h>
#include "check.h"
void __parad_fwddiff(void *, ...);
void __parad_autodiff(void *, ...);
enum { N = 4, M = 37 };
static void f(const double *x, double *out) {
  double rows[N] = {0};
#pragma omp parallel for num_threads(2)
  for (int i = 0; i < N; i++) {
    double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(2)
    for (int j = 0; j < M; j++) s += sin(x[i * M + j]) * (j + 1);
    rows[i] = s * s;
  }
  double t = 0;
  for (int i = 0; i < N; i++) t += rows[i] * (i + 1);
  *out = t;
}
int main(void) {
  omp_set_max_active_levels(2);
  double x[N * M], dx[N * M] = {0}, out = 0, dout = 1;
  for (int i = 0; i < N * M; i++) x[i] = 0.01 * i;
  __parad_autodiff((void *)f, x, dx, &out, &dout);
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < M; j++) s += sin(x[i * M + j]) * (j + 1);
    for (int j = 0; j < M; j++) CHECK_CLOSE(dx[i * M + j], (i + 1) * 2 * s * cos(x[i * M + j]) * (j + 1), 1e-12);
  }
  double v[N * M] = {0}, dv = 0; v[M + 3] = 1;
  __parad_fwddiff((void *)f, x, v, &out, &dv);
  CHECK_CLOSE(dv, dx[M + 3], 1e-12);
  return check_done();
}
