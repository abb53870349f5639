// C11's `+=` and `-=` on an _Atomic double compile to a compare-and-swap loop (load, add, swap the sum in
// until no other thread came between), which was refused as a compare-and-swap of active data; such a
// loop is the atomic add it is now (ad/atomic_adds.h), in the threads of a parallel loop and in serial
// code, its value (t = total -= x0) kept. f = t^2 + t with t = sum sin(x_i) x_i - x0: gradient
// against the analytic one (1e-12), tangents along unit directions (1e-12), at 1, 2 and 3 threads, at -O2
// (%cflags) and -O0; without OpenMP too. `*=` stays refused (tests/diag/atomic_compound.c).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: %parad-cc %cflags %s -o %ts -lm && %ts
#include <math.h>

#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 50 };
static _Atomic double total;

static double f(const double *x, int n) {
  total = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) total += sin(x[i]) * x[i];
  double t = (total -= x[0]);
  return t * t + total;
}

int main(void) {
  double x[N], g[N] = {0}, s = 0;
  for (int i = 0; i < N; i++) x[i] = 0.02 * i + 0.1, s += sin(x[i]) * x[i];
  __parad_autodiff((void *)f, x, g, parad_const, N);
  for (int i = 0; i < N; i++) {
    double t = s - x[0], want = (2 * t + 1) * (cos(x[i]) * x[i] + sin(x[i]) - (i == 0)), e[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(g[i], want, 1e-12);
    if (i % 7 == 0) CHECK_CLOSE(__parad_fwddiff((void *)f, x, e, parad_const, N), want, 1e-12);
  }
  return check_done();
}
