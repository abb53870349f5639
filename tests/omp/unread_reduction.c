// A region's sum that nothing reads after it: a gradient drops the function's result, so the forward
// sweep need not compute the sum (omp_unread_shared.c). energy() sums x_i^3 / (1 + x_i^2) over a parallel
// loop with a reduction; its forward sweep must not divide (the reverse sweep reads the x_i again and
// computes what it needs), which FileCheck checks in the optimised IR. Beside it, shapes where the sum is read and must stay:
// squared() returns e * e (the reverse sweep needs e), scaled() reads the sum inside the region after a
// barrier into another shared variable, and atomic_sum() adds with `omp atomic` into a local that only
// the forked region reads back (returned). Gradients against the analytic derivatives (1e-12) at 1, 2 and
// 3 threads at -O2 and 2 at -O0; tangents against the gradient (1e-12).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=2 %t0
// RUN: %parad-cc %cflags -fopenmp -S -emit-llvm %s -o - | FileCheck %s
// CHECK-LABEL: define internal {{.*}}@augmented.par.energy.omp_outlined
// CHECK-NOT: fdiv
// CHECK: {{^}}}
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 1000 };

__attribute__((noinline)) static double energy(const double *x, int n) {
  double e = 0;
#pragma omp parallel for schedule(static) reduction(+ : e)
  for (int i = 0; i < n; i++) e += x[i] * x[i] * x[i] / (1 + x[i] * x[i]);
  return e;
}

__attribute__((noinline)) static double squared(const double *x, int n) {
  double e = 0;
#pragma omp parallel for schedule(static) reduction(+ : e)
  for (int i = 0; i < n; i++) e += x[i] * x[i] * x[i] / (1 + x[i] * x[i]);
  return e * e;
}

__attribute__((noinline)) static double scaled(const double *x, int n) {
  double e = 0, s = 0;
#pragma omp parallel shared(e, s)
  {
#pragma omp for schedule(static) reduction(+ : e)
    for (int i = 0; i < n; i++) e += x[i] * x[i] * x[i] / (1 + x[i] * x[i]);
#pragma omp single
    s = 3 * e * e;
  }
  return s;
}

__attribute__((noinline)) static double atomic_sum(const double *x, int n) {
  double e = 0;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    e += x[i] * x[i] * x[i] / (1 + x[i] * x[i]);
  }
  return e;
}

static double x[N], dx[N], v[N];

/* d/dx_i of sum x^3 / (1 + x^2): (x_i^4 + 3 x_i^2) / (1 + x_i^2)^2 */
static double term_derivative(int i) {
  double q = x[i] * x[i];
  return (q * q + 3 * q) / ((1 + q) * (1 + q));
}

/* the gradient of f (its derivative times term_derivative's), and a tangent against it */
#define CHECK_FUNCTION(f, outer)                                                     \
  do {                                                                               \
    for (int i = 0; i < N; i++) dx[i] = 0;                                           \
    __parad_autodiff((void *)f, x, dx, N);                                           \
    for (int i = 0; i < N; i += 37) CHECK_CLOSE(dx[i], (outer) * term_derivative(i), 1e-12); \
    double dot = 0;                                                                  \
    for (int i = 0; i < N; i++) v[i] = sin(0.3 * i), dot += dx[i] * v[i];           \
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, N), dot, 1e-12);                    \
  } while (0)

int main(void) {
  double e = 0;
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.4 * cos(0.01 * i), e += x[i] * x[i] * x[i] / (1 + x[i] * x[i]);
  CHECK_CLOSE(energy(x, N), e, 1e-12);
  CHECK_FUNCTION(energy, 1);
  CHECK_FUNCTION(squared, 2 * e);
  CHECK_FUNCTION(scaled, 6 * e);
  CHECK_FUNCTION(atomic_sum, 1);
  return check_done();
}
