// Task clauses that change when or where a task runs but not what it computes, both modes: if(0)
// (the creating thread runs the task at once), final (descendants run at once), mergeable, priority, and
// taskyield inside a task. Each task adds its term into its own slot; the terms are then combined
// nonlinearly. f(x) = sum_i w_i t_i^2, t_i = sin(x_i) x_{i+1} (+ x_i^2 for the final ones), w_i = 1 + i/10.
// Gradients and tangents against the analytic derivative (1e-12) and central differences (1e-7), at 1,
// 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// At -O0 the optimised copies' derivatives are refused (a task's block copied as integers) and the file is
// differentiated as compiled: nothing of the attempt may be printed (docs/design.md "At -O0").
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm 2>%t0.err && OMP_NUM_THREADS=3 %t0
// RUN: test ! -s %t0.err
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 24 };

static void term(const double *x, double *t, int i) {
  t[i] = sin(x[i]) * x[(i + 1) % N];
  if (i % 4 == 3) t[i] += x[i] * x[i];
}

static double f(const double *x) {
  double t[N], s = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < N; i += 4) {
#pragma omp task if (0) firstprivate(i) shared(t)
      term(x, t, i);
#pragma omp task final(1) firstprivate(i) shared(t)
      {
        term(x, t, i + 1);
#pragma omp task firstprivate(i) shared(t)
        term(x, t, i + 2);
      }
#pragma omp task mergeable priority(3) firstprivate(i) shared(t)
      {
#pragma omp taskyield
        term(x, t, i + 3);
      }
    }
#pragma omp taskwait
    for (int i = 0; i < N; i++) s += (1 + i / 10.0) * t[i] * t[i];
  }
  return s;
}

static double df(const double *x, int j) {
  double d = 0;
  for (int i = 0; i < N; i++) {
    int k = (i + 1) % N;
    double t = sin(x[i]) * x[k] + (i % 4 == 3 ? x[i] * x[i] : 0);
    double dt = (i == j ? cos(x[i]) * x[k] + (i % 4 == 3 ? 2 * x[i] : 0) : 0) + (k == j ? sin(x[i]) : 0);
    d += (1 + i / 10.0) * 2 * t * dt;
  }
  return d;
}

int main(void) {
  double x[N], g[N] = {0}, v[N];
  for (int i = 0; i < N; i++) x[i] = 0.1 * i - 1.1;
  __parad_autodiff((void *)f, x, g);
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) v[i] = i == j;
    CHECK_CLOSE(g[j], df(x, j), 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), df(x, j), 1e-12);
    CHECK_CLOSE(g[j], fd_component(f, x, N, j, 1e-6), 1e-7);
  }
  return check_done();
}
