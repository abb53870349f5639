// Task shapes beside the others, both modes:
//   master:   tasks created in a master construct (no implied barrier after it: an explicit one), each
//             with a firstprivate struct of two active values (copied into the task's block whole);
//   per_row:  a work-shared loop whose iterations each create two tasks on halves of a row and wait for
//             them (taskwait in every iteration);
//   chain:    a chain of tasks each reading the previous one's result (depend inout on one scalar) and
//             an active weight, final(1) on the last ones;
//   locals:   a single construct that only creates tasks (their adjoints run as tasks), through an array
//             local to the construct that the tasks write and read (its shadow must outlive them: once
//             given back before the adjoint tasks were done, at 2 threads).
// f = master + per_row + chain + locals over x in R^19. Gradient against the tangents (1e-12) and central
// differences (h = 1e-6, 1e-7 relative), at 1, 2 and 4 threads at -O2, at 3 threads at -O0; under
// valgrind at 2 threads (no read or write of freed memory).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: OMP_NUM_THREADS=2 valgrind -q --error-exitcode=9 %t > /dev/null
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 19, R = 4, K = 6, M = 8 };

typedef struct {
  double a, b;
} Pair;

static double master(const double *x, int n) {
  double out[K] = {0}, s = 0;
#pragma omp parallel
  {
#pragma omp master
    for (int k = 0; k < K; k++) {
      Pair p = {x[k], x[n - 1 - k]};
#pragma omp task firstprivate(p, k) shared(out)
      out[k] = p.a * sin(p.b) + p.b * p.b;
    }
#pragma omp barrier
  }
  for (int k = 0; k < K; k++) s += out[k];
  return s;
}

static double per_row(const double *x, int n) {
  double rows[R][2], s = 0;
#pragma omp parallel for
  for (int r = 0; r < R; r++) {
    for (int h = 0; h < 2; h++) {
#pragma omp task firstprivate(r, h) shared(rows)
      {
        double t = 0;
        for (int i = r + h; i < n; i += R + 1) t += exp(0.2 * x[i]);
        rows[r][h] = t;
      }
    }
#pragma omp taskwait
    rows[r][0] *= rows[r][1];
  }
  for (int r = 0; r < R; r++) s += rows[r][0];
  return s;
}

static double chain(const double *x, int n) {
  double acc = 1;
#pragma omp parallel
#pragma omp single
  for (int k = 0; k < n; k += 3) {
    double w = x[k];
#pragma omp task firstprivate(w) depend(inout : acc) final(k > n / 2)
    acc = acc * (1 + 0.1 * w) + 0.05 * w * w;
  }
  return acc;
}

static void locals_into(const double *x, double *res, int n) {
#pragma omp parallel
#pragma omp single
  {
    double tmp[M];
    for (int k = 0; k < M; k++) {
#pragma omp task firstprivate(k) shared(tmp) depend(out : tmp[k])
      tmp[k] = sin(x[k]) * x[(k + 1) % n];
    }
    for (int k = 0; k < M; k++) {
#pragma omp task firstprivate(k) shared(tmp, res) depend(in : tmp[k], tmp[(k + 1) % M]) depend(out : res[k])
      res[k] = tmp[k] * tmp[(k + 1) % M];
    }
#pragma omp taskwait
  }
}

static double locals(const double *x, int n) {
  double res[M], s = 0;
  locals_into(x, res, n);
  for (int k = 0; k < M; k++) s += res[k];
  return s;
}

static double f(const double *x, int n) { return master(x, n) + per_row(x, n) + chain(x, n) + locals(x, n); }

static double f_all(const double *y) { return f(y, N); }

int main(void) {
  double x[N], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.15 * i - 1.2;
  __parad_autodiff((void *)f, x, g, N);
  for (int j = 0; j < N; j++) {
    double v[N] = {0};
    v[j] = 1;
    double d = __parad_fwddiff((void *)f, x, v, N);
    CHECK_CLOSE(g[j], d, 1e-12);
    CHECK_CLOSE(g[j], fd_component(f_all, x, N, j, 1e-6), 1e-7);
  }
  return check_done();
}
