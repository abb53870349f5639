// Critical sections inside tasks, reverse and forward mode. Sections that add into shared data
// (s += v; s = s + a b) reverse in any order, so tasks' adjoints need not wait for each other's turn, but
// one at a time (a task's reverse takes the adjoint of s and adds it back: another must not see it half
// done; 1 to 2% of gradients lost or doubled a component before): gradients, 100 times, and tangents
// against the analytic derivative (1e-12) at 1, 2 and 4 threads at -O2, 3 at -O0. A section
// that overwrites (a maximum kept by compare and assign) needs its reverse in the opposite order of entry,
// which tasks do not keep: alone on a team the order is the program's and the gradient is right; on a
// team of two the run stops with the reason rather than give a wrong gradient.
// A section may call a helper that recurses (it writes nothing, so the section still only adds: the run
// stopped before, taking recursion for writing), and another sum is kept under an omp_lock_t (whose
// sections' reverse takes the lock too; at -O0, where the lock's address is loaded once for each call,
// the section was taken for one left open, hence one that overwrites, and the run stopped at 2 threads).
//   f(x) = (sum_i sin(x_i) x_i + x_i^2 + h(x_i) + cos(x_i))^2, h linear        m(x) = max_i x_i^2 (the largest at i = N - 1)
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: OMP_NUM_THREADS=1 %t max
// RUN: env OMP_NUM_THREADS=2 not %t max 2>&1 | FileCheck %s
// CHECK: parad runtime: reverse mode cannot differentiate a critical section (or lock) that overwrites shared data inside an OpenMP task run by a team of several threads
#include <math.h>
#include <omp.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 17 };

/* linear in v (h(v, d) = c_d v), recursive twice over: a helper a section may call (it writes nothing) */
static double h(double v, int d) { return d <= 0 ? v : 0.5 * (h(v, d - 1) + h(0.5 * v, d - 2)); }

static double f(const double *x) {
  double s = 0, t = 0; /* t under the lock */
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i) shared(s, t, lock)
    {
      double v = sin(x[i]) * x[i];
#pragma omp critical
      s += v;
#pragma omp critical
      s = s + x[i] * x[i];
#pragma omp critical
      s += h(x[i], 3);
      double c = cos(x[i]);
      omp_set_lock(&lock);
      t += c;
      omp_unset_lock(&lock);
    }
  }
  omp_destroy_lock(&lock);
  return (s + t) * (s + t);
}

static double m(const double *x) {
  double best = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(2)
  for (int i = 0; i < N; i++) {
    double v = x[i] * x[i];
#pragma omp critical
    if (v > best) best = v;
  }
  return best;
}

int main(int argc, char **argv) {
  double x[N], g[N] = {0}, v[N], s = 0;
  for (int i = 0; i < N; i++) x[i] = 0.1 * i + 0.2;
  if (argc > 1) {
    __parad_autodiff((void *)m, x, g);
    for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], j == N - 1 ? 2 * x[j] : 0, 1e-12);
    return check_done();
  }
  double c = h(1, 3);
  for (int i = 0; i < N; i++) s += sin(x[i]) * x[i] + x[i] * x[i] + c * x[i] + cos(x[i]);
  for (int rep = 0; rep < 100; rep++) { /* the tasks' reverse sweeps racing for one adjoint: many times */
    for (int j = 0; j < N; j++) g[j] = 0;
    __parad_autodiff((void *)f, x, g);
    for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], 2 * s * (sin(x[j]) + x[j] * cos(x[j]) + 2 * x[j] + c - sin(x[j])), 1e-12);
  }
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) v[i] = i == j;
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), 2 * s * (sin(x[j]) + x[j] * cos(x[j]) + 2 * x[j] + c - sin(x[j])), 1e-12);
  }
  return check_done();
}
