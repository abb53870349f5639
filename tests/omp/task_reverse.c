// OpenMP tasks in reverse mode (each task records on a tape of its own; its creator runs its reverse sweep
// at the adjoint of the spawn), against the tangents of forward mode (1e-12) and central differences
// (h = 1e-6, 1e-7 relative), at 1, 2 and 4 threads at -O2, at 3 threads at -O0:
//   single:    tasks created in a single construct with firstprivate copies of an index and an active
//              weight, writing their parts of a shared array; one of them if(0) (run at once, its entry
//              called by the creating code), taskwait; then tasks with final(), in a taskgroup;
//   everyone:  every thread creates tasks (a work-shared loop spawning one per row), which add into
//              one shared total under an atomic and write rows of a shared array that each neighbouring
//              row's task reads after a barrier: adjoint tasks of several creators at once;
//   nested:    a task creating tasks that fill a local array, waited for inside the task.
// f = single + everyone + nested, with x in R^23.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 23, K = 4, R = 6 };

static double single(const double *x, int n) {
  double part[K] = {0}, s = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int k = 0; k < K; k++) {
      double w = x[k];
#pragma omp task firstprivate(k, w) shared(part) if (k != 1)
      {
        double a = 0;
        for (int i = k; i < n; i += K) a += sin(x[i]);
        part[k] = a * w;
      }
    }
#pragma omp taskwait
#pragma omp taskgroup
    for (int k = 0; k < K; k++) {
#pragma omp task firstprivate(k) shared(part) final(k == 2)
      {
        double a = 0;
        for (int i = k; i < n; i += K) a += cos(x[i]) * x[i];
        part[k] += a * x[k] * x[k];
      }
    }
    for (int k = 0; k < K; k++) s += part[k];
  }
  return s;
}

static double everyone(const double *x, int n) {
  double rows[R], total = 0;
#pragma omp parallel shared(rows, total)
  {
#pragma omp for
    for (int r = 0; r < R; r++) {
#pragma omp task firstprivate(r) shared(rows, total)
      {
        double a = 0;
        for (int i = r; i < n; i += R) a += x[i] * x[i];
        rows[r] = exp(0.1 * a);
#pragma omp atomic
        total += a * x[r];
      }
    }
    /* the implicit barrier of the loop waits for the tasks */
#pragma omp for
    for (int r = 0; r < R; r++) {
#pragma omp task firstprivate(r) shared(rows, total)
      {
        double t = rows[r] * rows[(r + 1) % R];
#pragma omp atomic
        total += t;
      }
    }
  }
  return total;
}

static double nested(const double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
#pragma omp task shared(s)
  {
    double y[K];
    for (int k = 0; k < K; k++) {
#pragma omp task firstprivate(k) shared(y)
      y[k] = x[k] * x[n - 1 - k];
    }
#pragma omp taskwait
    for (int k = 0; k < K; k++) s += y[k] * y[(k + 1) % K];
  }
  return s;
}

static double f(const double *x, int n) { return single(x, n) + everyone(x, n) + nested(x, n); }

static double f_all(const double *y) { return f(y, N); }

int main(void) {
  double x[N], v[N], g[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.1 * i - 0.8;
  __parad_autodiff((void *)f, x, g, N);
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) v[i] = i == j;
    double d = __parad_fwddiff((void *)f, x, v, N);
    CHECK_CLOSE(g[j], d, 1e-12);
    CHECK_CLOSE(g[j], fd_component(f_all, x, N, j, 1e-6), 1e-7);
  }
  return check_done();
}
