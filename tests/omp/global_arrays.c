// Global arrays in a parallel region, both modes: a worksharing loop fills a file-scope array (u), a second
// reads its neighbours into another (v: a stencil over shared globals), and every thread adds into the
// region's reduction (total). The globals are used by the region's function only; their shadows are shared
// like the globals. Globals both the region and the function around it use:
// tests/omp/global_across_functions.c.
//   u_i = x_i^2, v_i = u_{i-1} + 2 u_i + u_{i+1} (ends: 0 outside), total = sum_i v_i x_i
//   dtotal/dx_k = v_k + 2 x_k (x_{k-1} + 2 x_k + x_{k+1})   (x_{-1} = x_N = 0)
// Gradient and tangents along each unit direction against the analytic derivative (1e-12), called twice
// (the shadows zero at each entry), at 1, 2 and 4 threads, -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=3 %t0
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 40 };
static double u[N], v[N];

static double f(const double *x) {
  double total = 0;
#pragma omp parallel reduction(+ : total)
  {
#pragma omp for
    for (int i = 0; i < N; i++) u[i] = x[i] * x[i];
#pragma omp for
    for (int i = 0; i < N; i++) v[i] = (i > 0 ? u[i - 1] : 0) + 2 * u[i] + (i < N - 1 ? u[i + 1] : 0);
#pragma omp for
    for (int i = 0; i < N; i++) total += v[i] * x[i];
  }
  return total;
}

int main(void) {
  double x[N], want[N];
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < N; i++) x[i] = 0.1 + 0.02 * i + 0.3 * round;
    for (int k = 0; k < N; k++) {
      double lo = k > 0 ? x[k - 1] : 0, hi = k < N - 1 ? x[k + 1] : 0;
      double vk = lo * lo + 2 * x[k] * x[k] + hi * hi;
      want[k] = vk + 2 * x[k] * (lo + 2 * x[k] + hi);
    }
    double g[N] = {0};
    __parad_autodiff((void *)f, x, g);
    for (int k = 0; k < N; k++) {
      double d[N] = {0};
      d[k] = 1;
      CHECK_CLOSE(g[k], want[k], 1e-12);
      CHECK_CLOSE(__parad_fwddiff((void *)f, x, d), want[k], 1e-12);
    }
  }
  return check_done();
}
