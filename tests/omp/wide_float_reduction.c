// Reductions of long double and __float128 in a parallel region: in reverse mode each thread adds the
// adjoint of the reduced variable into the shared one, which no instruction does atomically for these
// types; it was refused ("cannot add the adjoint of a long double atomically"), and is now made under a
// lock of the runtime's. Gradients (reverse) and tangents (forward, along each unit direction) against
// the analytic ones (1e-12), at 1 and 3 threads, -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && env OMP_NUM_THREADS=1 %t && env OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && env OMP_NUM_THREADS=3 %t0
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double squares_ld(const double *x, int n) {
  long double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (long double)x[i] * x[i] * (i + 1);
  return (double)s;
}

__attribute__((noinline)) static double squares_q(const double *x, int n) {
  __float128 s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (__float128)x[i] * x[i] * (i + 1);
  return (double)s;
}

int main(void) {
  enum { N = 9 };
  double x[N], g[N] = {0}, q[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.2 * i;
  __parad_autodiff((void *)squares_ld, x, g, parad_const, N);
  __parad_autodiff((void *)squares_q, x, q, parad_const, N);
  for (int i = 0; i < N; i++) {
    double e[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(g[i], 2 * (i + 1) * x[i], 1e-12);
    CHECK_CLOSE(q[i], 2 * (i + 1) * x[i], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)squares_ld, x, e, parad_const, N), 2 * (i + 1) * x[i], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)squares_q, x, e, parad_const, N), 2 * (i + 1) * x[i], 1e-12);
  }
  return check_done();
}
