// depend(mutexinoutset), both modes. Tasks that name a datum mutexinoutset exclude each other and are
// ordered after (and before) the datum's other dependences; Parad runs them in the order they were
// created (as inout), which mutual exclusion allows, and the reverse sweep reverses that order.
// Per element, a task adds sin(x_i) x_i into s (mutexinoutset: the adds are not atomic), then a task
// reads s (in) into r, then tasks add r x_i^2 into s again (mutexinoutset), and into u through a second
// datum that two dependences name (mutexinoutset on u, in on r). f(x) = s + r + u^2.
// Gradients and tangents against the analytic derivative (1e-12) and central differences (1e-7), at 1,
// 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 16 };

static double f(const double *x) {
  double s = 0, r = 0, u = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < N; i++) {
#pragma omp task depend(mutexinoutset : s) shared(s) firstprivate(i)
      s += sin(x[i]) * x[i];
    }
#pragma omp task depend(in : s) depend(out : r) shared(s, r)
    r = s * s;
    for (int i = 0; i < N; i++) {
#pragma omp task depend(mutexinoutset : s) depend(in : r) shared(s, r) firstprivate(i)
      s += r * x[i] * x[i];
#pragma omp task depend(mutexinoutset : u) depend(in : r) shared(u, r) firstprivate(i)
      u += r * cos(x[i]);
    }
#pragma omp taskwait
  }
  return s + r + u * u;
}

static double df(const double *x, int j) {
  double s1 = 0, ds1 = 0, q = 0, dq = 0, c = 0, dc = 0;
  for (int i = 0; i < N; i++) {
    s1 += sin(x[i]) * x[i], q += x[i] * x[i], c += cos(x[i]);
    if (i == j) ds1 = cos(x[i]) * x[i] + sin(x[i]), dq = 2 * x[i], dc = -sin(x[i]);
  }
  double r = s1 * s1, dr = 2 * s1 * ds1, u = r * c, du = dr * c + r * dc;
  return ds1 + dr * q + r * dq + dr + 2 * u * du; /* s = s1 + r q */
}

int main(void) {
  double x[N], g[N] = {0}, v[N];
  for (int i = 0; i < N; i++) x[i] = 0.05 * i - 0.3;
  __parad_autodiff((void *)f, x, g);
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) v[i] = i == j;
    CHECK_CLOSE(g[j], df(x, j), 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), df(x, j), 1e-12);
    CHECK_CLOSE(g[j], fd_component(f, x, N, j, 1e-6), 1e-7);
  }
  return check_done();
}
