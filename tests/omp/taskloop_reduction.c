// Task loops with reductions, both modes: a time loop whose every step is a task loop (grainsize) that
// updates u and sums its energy with reduction(+), the sum then scaling the next step (so the reverse
// sweep needs each step's sum); and a task loop with in_reduction (num_tasks) inside a task group's
// task_reduction, beside a plain task reducing into the same variable.
//   step:  u_i <- u_i + dt (u_{i-1} - 2 u_i + u_{i+1}) / (1 + e),  e = sum_i u_i^2 (of the step before)
//   f(x) = sum_i u_i^2 after STEPS steps from u = x;  q(x) = sum_i x_i^3 + sin(x_0) x_1
// Gradients and tangents against central differences (h = 1e-6, 1e-7 relative) and q against its analytic
// derivative (1e-12), at 1, 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 40, STEPS = 6 };

static double f(const double *x) {
  double u[N], v[N], e = 0;
  for (int i = 0; i < N; i++) u[i] = x[i];
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < STEPS; t++) {
    double scale = 0.2 / (1 + e), next = 0;
#pragma omp taskloop grainsize(7) reduction(+ : next)
    for (int i = 0; i < N; i++) {
      double l = i > 0 ? u[i - 1] : 0, r = i + 1 < N ? u[i + 1] : 0;
      v[i] = u[i] + scale * (l - 2 * u[i] + r);
      next += v[i] * v[i];
    }
    e = next;
    for (int i = 0; i < N; i++) u[i] = v[i];
  }
  return e;
}

static double q(const double *x) {
  double s = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+ : s)
  {
#pragma omp task in_reduction(+ : s)
    s += sin(x[0]) * x[1];
#pragma omp taskloop num_tasks(5) in_reduction(+ : s)
    for (int i = 0; i < N; i++) s += x[i] * x[i] * x[i];
  }
  return s;
}

int main(void) {
  double x[N], g[N] = {0}, gq[N] = {0}, v[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 * sin(0.7 * i) + 0.1;
  __parad_autodiff((void *)f, x, g);
  __parad_autodiff((void *)q, x, gq);
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) v[i] = i == j;
    double d = __parad_fwddiff((void *)f, x, v);
    CHECK_CLOSE(g[j], d, 1e-12);
    CHECK_CLOSE(g[j], fd_component(f, x, N, j, 1e-6), 1e-7);
    double want = 3 * x[j] * x[j] + (j == 0 ? cos(x[0]) * x[1] : j == 1 ? sin(x[0]) : 0);
    CHECK_CLOSE(gq[j], want, 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)q, x, v), want, 1e-12);
  }
  return check_done();
}
