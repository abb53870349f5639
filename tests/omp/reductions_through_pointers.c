// OpenMP reductions in functions called through a table of function pointers. The reductions of the
// functions a derivative reaches are rewritten before differentiating (omp_prepare.c), but only those
// reached by direct calls were: through a pointer, the derivative stopped at run time in both modes ("Parad
// does not know this entry point of the OpenMP runtime (__kmpc_reduce_nowait)"). Every function a call
// through a pointer may hold is now reached too.
//   kernels: parallel for reduction(+), reduction(max:), a for reduction inside a parallel region, a
//   taskloop reduction; J = sum_k w_k kernel_k(x).
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), at 1-3
// threads, -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 9 };
typedef double (*Kernel)(const double *, int);

static double cube_sum(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i];
  return s;
}

static double largest(const double *x, int n) { /* the values are apart: one largest */
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) m = fmax(m, sin(x[i]) + 0.1 * i);
  return m;
}

static double in_region(const double *x, int n) {
  double s = 0;
#pragma omp parallel
  {
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; i++) s += exp(0.3 * x[i]) * (i + 1);
  }
  return s;
}

static double tasks(const double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop reduction(+ : s) grainsize(2)
  for (int i = 0; i < n; i++) s += x[i] * x[(i + 1) % n];
  return s;
}

static Kernel table[4] = {cube_sum, largest, in_region, tasks};
static const double weight[4] = {1.0, 2.0, 0.5, 1.5};

static double total(const double *x) {
  double J = 0;
  for (int k = 0; k < 4; k++) J += weight[k] * table[k](x, N);
  return J;
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.37 * i - 0.05 * i * i;
  CHECK_GRADIENT(total, x, N, 1e-12, 1e-6, 1e-6);
  return check_done();
}
