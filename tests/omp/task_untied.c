// Untied tasks, both modes. clang cuts an untied task into parts at its scheduling points, and the task
// hands itself back to libomp between them; Parad runs such a task tied (OpenMP allows it), its parts one
// after another in one call of its entry. The shapes:
//   leaf untied tasks, each adding its term into a shared sum atomically (a task of one part and its
//     hand-back at the start);
//   an untied task that spawns tied children in a loop and waits for them (a part per spawn: the loop
//     counter lives in the task between parts), then reads what they wrote;
//   untied tasks that spawn untied tasks recursively and wait for them (a sum tree over halves);
//   an untied task loop.
// f(x) = the four results combined nonlinearly. Gradients and tangents against the analytic derivative
// (1e-12) and central differences (1e-7), at 1, 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 20 };

static double leaves(const double *x) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < N; i++) {
#pragma omp task untied shared(s) firstprivate(i)
    {
      double t = sin(x[i]) * x[i];
#pragma omp atomic
      s += t;
    }
  }
  return s;
}

static double spawner(const double *x) {
  double t[N], s = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task untied shared(t, s)
    {
      for (int i = 0; i < N; i++) {
#pragma omp task shared(t) firstprivate(i)
        t[i] = x[i] * x[(i + 1) % N];
      }
#pragma omp taskwait
      for (int i = 0; i < N; i++) s += t[i] * t[i];
    }
  }
  return s;
}

static double tree(const double *x, int lo, int hi) {
  if (hi - lo <= 2) {
    double s = 0;
    for (int i = lo; i < hi; i++) s += exp(0.1 * x[i]);
    return s;
  }
  double a, b;
  int mid = (lo + hi) / 2;
#pragma omp task untied shared(a)
  a = tree(x, lo, mid);
#pragma omp task untied shared(b)
  b = tree(x, mid, hi);
#pragma omp taskwait
  return a + b;
}

static double tree_sum(const double *x) {
  double s;
#pragma omp parallel
#pragma omp single
  s = tree(x, 0, N);
  return s;
}

static double looped(const double *x) {
  double t[N];
#pragma omp parallel
#pragma omp single
#pragma omp taskloop untied grainsize(3) shared(t)
  for (int i = 0; i < N; i++) t[i] = cos(x[i]);
  double s = 0;
  for (int i = 0; i < N; i++) s += t[i] * x[(i + 3) % N];
  return s;
}

static double f(const double *x) {
  double a = leaves(x), b = spawner(x), c = tree_sum(x), d = looped(x);
  return a * b + c * c + d;
}

/* The parts' values and their derivatives along component j. */
static void parts(const double *x, int j, double v[4], double dv[4]) {
  for (int k = 0; k < 4; k++) v[k] = dv[k] = 0;
  for (int i = 0; i < N; i++) {
    int n = (i + 1) % N, m = (i + 3) % N;
    double ti = x[i] * x[n], dti = (i == j ? x[n] : 0) + (n == j ? x[i] : 0);
    v[0] += sin(x[i]) * x[i], dv[0] += i == j ? cos(x[i]) * x[i] + sin(x[i]) : 0;
    v[1] += ti * ti, dv[1] += 2 * ti * dti;
    v[2] += exp(0.1 * x[i]), dv[2] += i == j ? 0.1 * exp(0.1 * x[i]) : 0;
    v[3] += cos(x[i]) * x[m], dv[3] += (i == j ? -sin(x[i]) * x[m] : 0) + (m == j ? cos(x[i]) : 0);
  }
}

static double df(const double *x, int j) {
  double v[4], d[4];
  parts(x, j, v, d);
  return d[0] * v[1] + v[0] * d[1] + 2 * v[2] * d[2] + d[3];
}

int main(void) {
  double x[N], g[N] = {0}, v[N];
  for (int i = 0; i < N; i++) x[i] = 0.1 * i - 0.9;
  __parad_autodiff((void *)f, x, g);
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) v[i] = i == j;
    CHECK_CLOSE(g[j], df(x, j), 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), df(x, j), 1e-12);
    CHECK_CLOSE(g[j], fd_component(f, x, N, j, 1e-6), 1e-7);
  }
  return check_done();
}
