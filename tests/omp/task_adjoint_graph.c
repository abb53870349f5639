// Adjoint tasks run as tasks: functions that only create tasks (a single construct feeding a task graph)
// have each task's adjoint spawned as a task with its dependences turned round, waits kept as waits.
//   stencil: a 1-D three-point stencil over S time steps on B tiles, one task per tile and step, reading
//            tiles i-1, i, i+1 of one time level (depend in, each tile named by its first element, as
//            OpenMP matches dependences by address) and writing tile i of the other (depend out); the
//            levels alternate;
//   waves:   a taskgroup of tasks scaling tiles in place (inout), then, after the group, tasks summing
//            squares of pairs of tiles into per-tile partials (in, out), then a taskwait and a serial sum.
// f = sum of the last level's squares + the waves' sum. Gradient against the tangents (1e-12) and central
// differences (h = 1e-6, 1e-7 relative), at 1, 2 and 4 threads at -O2, at 3 threads at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { B = 6, L = 4, N = B * L, S = 5 };

static void relax(const double *u, double *v, int tile) {
  for (int i = tile * L; i < (tile + 1) * L; i++) {
    double left = i > 0 ? u[i - 1] : 0, right = i + 1 < N ? u[i + 1] : 0;
    v[i] = 0.25 * left + 0.5 * u[i] + 0.25 * right + 0.01 * sin(u[i]);
  }
}

static void stencil(double *a, double *b) {
#pragma omp parallel
#pragma omp single
  for (int s = 0; s < S; s++) {
    double *u = s % 2 ? b : a, *v = s % 2 ? a : b;
    for (int t = 0; t < B; t++) {
      int l = t > 0 ? t - 1 : t, r = t + 1 < B ? t + 1 : t; /* dependences match on a tile's first element */
#pragma omp task firstprivate(t, u, v) depend(in : u[l * L], u[t * L], u[r * L]) depend(out : v[t * L])
      relax(u, v, t);
    }
  }
}

static void waves(double *a, double *part) {
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup
    for (int t = 0; t < B; t++) {
#pragma omp task firstprivate(t) depend(inout : a[t * L])
      for (int i = t * L; i < (t + 1) * L; i++) a[i] = a[i] * (1 + 0.1 * t) + 0.05 * a[i] * a[i];
    }
    for (int t = 0; t < B; t++) {
#pragma omp task firstprivate(t) depend(in : a[t * L], a[((t + 1) % B) * L]) depend(out : part[t])
      {
        double s = 0;
        for (int i = 0; i < L; i++) s += a[t * L + i] * a[((t + 1) % B) * L + i];
        part[t] = s;
      }
    }
#pragma omp taskwait
  }
}

static double f(const double *x, double *work) {
  double *a = work, *b = work + N, *part = work + 2 * N;
  memcpy(a, x, sizeof(double) * N);
  stencil(a, b);
  double *last = S % 2 ? b : a, e = 0;
  for (int i = 0; i < N; i++) e += last[i] * last[i];
  waves(last, part);
  for (int t = 0; t < B; t++) e += part[t];
  return e;
}

static double f_plain(void *ctx, double t) {
  double *x = ctx, y[N], work[2 * N + B];
  for (int i = 0; i < N; i++) y[i] = x[i];
  y[(int)x[N]] = t;
  return f(y, work);
}

int main(void) {
  double x[N + 1], g[N] = {0}, work[2 * N + B], dwork[2 * N + B] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.3 * sin(0.7 * i) + 0.1;
  __parad_autodiff((void *)f, x, g, work, dwork);
  for (int j = 0; j < N; j++) {
    double v[N] = {0}, tw[2 * N + B] = {0};
    v[j] = 1;
    double d = __parad_fwddiff((void *)f, x, v, work, tw);
    CHECK_CLOSE(g[j], d, 1e-12);
    x[N] = j;
    CHECK_CLOSE(g[j], fd_central(f_plain, x, x[j], 1e-6), 1e-7);
  }
  return check_done();
}
