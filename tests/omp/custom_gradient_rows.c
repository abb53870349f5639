// A registered gradient called in a parallel loop, on a stack array every iteration of a thread refills
// (the array private to the thread, its loop's one slot reused): each call's gradient must see the array
// as the call did, which the call keeps a copy of (tests/rev/callee_locals_reversed.c has the serial
// shapes). Against central differences (h = 1e-6, tolerance 1e-6), at 1 to 4 threads, -O2 and -O0 (the
// compiler before: 6 of 6 wrong at both).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
enum { N = 6, ROWS = 40 };

__attribute__((noinline)) double sumsq(const double *u, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += u[i] * u[i];
  return s;
}
static double aug_sumsq(const double *u, double *du, int n) { return sumsq(u, n); }
static void grad_sumsq(const double *u, double *du, int n, double dret) {
  for (int i = 0; i < n; i++) du[i] += 2 * u[i] * dret; /* reads u when the reverse sweep runs */
}
void *__parad_register_gradient_sumsq[3] = {(void *)sumsq, (void *)aug_sumsq, (void *)grad_sumsq};

double rows(const double *x) {
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s)
  for (int r = 0; r < ROWS; r++) {
    double u[N];
    for (int i = 0; i < N; i++) u[i] = sin(x[i] * (1 + 0.05 * r)) + 0.01 * r;
    s += sumsq(u, N) * (1 + 0.1 * r);
  }
  return s;
}

int main(void) {
  double x[N], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.1 * i;
  __parad_autodiff((void *)rows, x, g);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], fd_component(rows, x, N, i, 1e-6), 1e-6);
  return check_done();
}
