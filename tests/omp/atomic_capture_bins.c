// Shapes of particle and mesh codes: particles put into bins with '#pragma omp atomic capture' (slot =
// count[b]++, integers only: the bins' order differs from run to run), each bin then summed in a loop
// with schedule(runtime) (OMP_SCHEDULE set to dynamic and to guided below); a loop with schedule(auto)
// and proc_bind(close) writing an array, a 'parallel for simd' sum and a max reduction over it, and a
// timer read (omp_get_wtime) that must stay inactive. Each function's gradient against forward tangents
// along every unit direction (1e-10) and central differences (h = 1e-6, 1e-6); 1 to 3 threads, -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 OMP_SCHEDULE=dynamic,2 %t && OMP_NUM_THREADS=3 OMP_SCHEDULE=guided %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 OMP_SCHEDULE=dynamic,1 %t0
#include <math.h>
#include <omp.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 48, NB = 4, CAP = N };

__attribute__((noinline)) static double binned(const double *x) {
  int count[NB] = {0}, list[NB * CAP];
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) {
    int b = (i * 7) % NB, slot;
#pragma omp atomic capture
    slot = count[b]++;
    list[b * CAP + slot] = i;
  }
  double J = 0;
#pragma omp parallel for reduction(+ : J) schedule(runtime)
  for (int b = 0; b < NB; b++) {
    double s = 0;
    for (int k = 0; k < count[b]; k++) s += sin(x[list[b * CAP + k]]) * (1 + b);
    J += s * s;
  }
  return J;
}

__attribute__((noinline)) static double mixed(const double *x) {
  double y[N], t0 = omp_get_wtime();
#pragma omp parallel for schedule(auto) proc_bind(close)
  for (int i = 0; i < N; i++) y[i] = exp(0.1 * x[i]) * x[(i + 1) % N];
  double s = 0;
#pragma omp parallel for simd reduction(+ : s)
  for (int i = 0; i < N; i++) s += y[i] * y[i];
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < N; i++) m = fmax(m, y[i]);
  if (omp_get_wtime() < t0) s *= 2; /* never */
  return s + m;
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.01 * i * (i % 3 == 0 ? -1 : 1); /* one largest y: no tie */
  CHECK_GRADIENT(binned, x, N, 1e-10, 1e-6, 1e-6);
  CHECK_GRADIENT(mixed, x, N, 1e-10, 1e-6, 1e-6);
  return check_done();
}
