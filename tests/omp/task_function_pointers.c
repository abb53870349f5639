// Tasks and function pointers, both modes: the task graph is built by a function reached through a
// pointer (a table of stages), and each task calls its operation through a table of function pointers
// chosen by data (i % 3), then folds its result into a running value in a producer/consumer chain
// (depend(inout) on the accumulator):
//   y_i = op_{i mod 3}(x_i), ops = {sin, x exp(x/4), x^3 / 3};  a <- a cos(y_i / 5) + y_i, a_0 = 0.
// Gradients against tangents (1e-12) and central differences (1e-7), at 1, 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 19 };

static double op_sin(double v) { return sin(v); }
static double op_exp(double v) { return v * exp(v / 4); }
static double op_cube(double v) { return v * v * v / 3; }
static double (*const ops[3])(double) = {op_sin, op_exp, op_cube};

/* the tasks copy the pointers (firstprivate, the default here): they may run after chain returns */
static void chain(const double *x, double *y, double *a) {
  for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i) depend(out : y[i])
    y[i] = ops[i % 3](x[i]);
#pragma omp task firstprivate(i) depend(in : y[i]) depend(inout : a[0])
    a[0] = a[0] * cos(y[i] / 5) + y[i];
  }
}

static void nothing(const double *x, double *y, double *a) { (void)x, (void)y, (void)a; }

typedef void (*Stage)(const double *, double *, double *);
static Stage stages[2] = {nothing, chain};

static double f(const double *x) {
  double y[N], a = 0;
#pragma omp parallel
#pragma omp single
  for (int s = 0; s < 2; s++) stages[s](x, y, &a);
  return a;
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.15 * i - 1.2;
  CHECK_GRADIENT(f, x, N, 1e-12, 1e-6, 1e-7);
  return check_done();
}
