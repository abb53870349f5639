// The 'if(n > 100)' clause: for small n the region is serialized (clang calls the outlined function directly
// between __kmpc_serialized_parallel and __kmpc_end_serialized_parallel, on the calling thread alone), for
// large n it forks a team. The same function is differentiated at n = 40 (serialized) and n = 160 (parallel):
// a 'parallel for if(n > 100) reduction(+ : s)' over s += x_i^2 cos(x_{i+1}), and a 'parallel if(n > 100)'
// region with an 'omp for' writing an output array y_i = x_i exp(-x_i) that a serial loop adds to the result
// with weights 1/(1 + i). Analytic gradient (tolerance 1e-12), forward tangents along every unit direction
// (1e-12), central finite differences along every fifth direction (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include <omp.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { NMAX = 160 };

static int team_size;

__attribute__((noinline)) static double f(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for if (n > 100) reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * x[i] * cos(x[(i + 1) % n]);
#pragma omp parallel if (n > 100)
  {
#pragma omp single
    team_size = omp_get_num_threads();
#pragma omp for
    for (int i = 0; i < n; i++) y[i] = x[i] * exp(-x[i]);
  }
  for (int i = 0; i < n; i++) s += y[i] / (1 + i);
  return s;
}

static double X0[NMAX];
static int Ncur;

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[NMAX], y[NMAX];
  for (int i = 0; i < Ncur; i++) x[i] = X0[i] + (i == k) * t;
  return f(x, y, Ncur);
}

int main(void) {
  int sizes[2] = {40, NMAX};
  for (int c = 0; c < 2; c++) {
    int n = Ncur = sizes[c];
    double x[NMAX], dx[NMAX] = {0}, y[NMAX], dy[NMAX] = {0}, ty[NMAX], e[NMAX];
    for (int i = 0; i < n; i++) X0[i] = x[i] = sin(0.37 * i) + 0.3;
    __parad_autodiff((void *)f, x, dx, y, dy, parad_const, n);
    int want_team = n > 100 ? omp_get_max_threads() : 1;
    if (team_size != want_team) printf("FAIL: team of %d threads at n = %d, want %d\n", team_size, n, want_team), check_failures++;
    for (int k = 0; k < n; k++) {
      int kp = (k + 1) % n, km = (k + n - 1) % n;
      double want = 2 * x[k] * cos(x[kp]) - x[km] * x[km] * sin(x[k]) + (1 - x[k]) * exp(-x[k]) / (1 + k);
      CHECK_CLOSE(dx[k], want, 1e-12);
      for (int i = 0; i < n; i++) e[i] = i == k;
      double t = __parad_fwddiff((void *)f, x, e, y, ty, parad_const, n);
      CHECK_CLOSE(dx[k], t, 1e-12);
      if (k % 5 == 0) CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
    }
  }
  return check_done();
}
