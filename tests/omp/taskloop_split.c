// Task loops of many chunks, both modes. libomp splits a task loop of more chunks than
// KMP_TASKLOOP_MIN_TASKS (by default 10 per thread) recursively: it copies the task's block into a new
// pattern per half, copies those per chunk, and never runs the patterns. Reverse mode once took the
// patterns for chunks and stopped ("an OpenMP task had not run when its reverse sweep was due").
//   scaled:  y_i = sin(x_i) x_i s over a num_tasks(47) task loop, s = x_0 firstprivate (the chunks'
//            reverse sweeps run one after the other, the creating code reads back the adjoint of s);
//   stencil: T steps of a three-point stencil, one grainsize(1) task loop per step, inside a single that
//            only creates tasks (the chunks' adjoints run as tasks);
// f = sum y_i + sum of the stencil's last level squared. Gradient against the tangents (1e-12) and central
// differences (h = 1e-6, 1e-7 relative), at 1, 2 and 4 threads at -O2, at 3 threads at -O0, and with
// KMP_TASKLOOP_MIN_TASKS=1 (split down to single chunks) at 2 threads.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: env OMP_NUM_THREADS=2 KMP_TASKLOOP_MIN_TASKS=1 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 97, T = 3 };

static double scaled(const double *x, int n) {
  double y[N], s = 0, scale = x[0];
#pragma omp parallel
#pragma omp single
#pragma omp taskloop num_tasks(47) firstprivate(scale)
  for (int i = 0; i < n; i++) y[i] = sin(x[i]) * x[i] * scale;
  for (int i = 0; i < n; i++) s += y[i];
  return s;
}

static void steps(double *a, double *b, int n) {
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < T; t++) {
    double *u = t % 2 ? b : a, *v = t % 2 ? a : b;
#pragma omp taskloop grainsize(1)
    for (int i = 0; i < n; i++) v[i] = 0.3 * (i > 0 ? u[i - 1] : 0) + 0.4 * u[i] + 0.3 * (i + 1 < n ? u[i + 1] : 0) + 0.05 * cos(u[i]);
  }
}

static double f(const double *x, double *work, int n) {
  double *a = work, *b = work + N, e = scaled(x, n);
  for (int i = 0; i < n; i++) a[i] = x[i] * x[i];
  steps(a, b, n);
  for (int i = 0; i < n; i++) e += (T % 2 ? b : a)[i] * (T % 2 ? b : a)[i];
  return e;
}

static double f_plain(void *ctx, double t) {
  double *x = ctx, y[N], work[2 * N];
  for (int i = 0; i < N; i++) y[i] = x[i];
  y[(int)x[N]] = t;
  return f(y, work, N);
}

int main(void) {
  double x[N + 1], g[N] = {0}, work[2 * N], dwork[2 * N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.02 * i - 1;
  __parad_autodiff((void *)f, x, g, work, dwork, N);
  for (int j = 0; j < N; j++) {
    double v[N] = {0}, tw[2 * N] = {0};
    v[j] = 1;
    double d = __parad_fwddiff((void *)f, x, v, work, tw, N);
    CHECK_CLOSE(g[j], d, 1e-12);
    x[N] = j;
    CHECK_CLOSE(g[j], fd_central(f_plain, x, x[j], 1e-6), 1e-7);
  }
  return check_done();
}
