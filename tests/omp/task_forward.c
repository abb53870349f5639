// OpenMP tasks in forward mode: tasks created in a single construct, each with firstprivate copies of an
// index and an active value and a shared array it writes its part into, a taskwait, then the parts
// summed. The same with if(0) (the task runs at once, its entry called by the creating code), untied,
// final, and a taskgroup in place of the taskwait. f(x) = sum_k w_k sum_{i = k mod 4} sin(x_i) with
// w_k = x_k (and x_k^2 for the second construct). Tangents along every unit direction against central
// differences (h = 1e-6, 1e-7 relative) and against the analytic derivative (1e-12), at 1, 2 and 4
// threads at -O2, at 3 threads at -O0 with tied tasks and with the untied one. At -O0 an untied task's
// locals live in its private block, whose addresses clang's task function gets from a function its entry
// passes it: Parad computes them in place (omp_private_maps.c), so their types are known (refused before).
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -DTIED -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t1 -lm && OMP_NUM_THREADS=3 %t1
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

enum { N = 23, K = 4 };

static double f(const double *x, int n, int late) {
  double part[K] = {0}, s = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int k = 0; k < K; k++) {
      double w = x[k];
#pragma omp task firstprivate(k, w) shared(part) if (k != late)
      {
        double a = 0;
        for (int i = k; i < n; i += K) a += sin(x[i]);
        part[k] = a * w;
      }
    }
#pragma omp taskwait
#pragma omp taskgroup
    for (int k = 0; k < K; k++) {
#ifdef TIED
#pragma omp task firstprivate(k) shared(part) final(k == 2)
#else
#pragma omp task firstprivate(k) shared(part) untied final(k == 2)
#endif
      {
        double a = 0;
        for (int i = k; i < n; i += K) a += sin(x[i]);
        part[k] += a * x[k] * x[k];
      }
    }
    for (int k = 0; k < K; k++) s += part[k];
  }
  return s;
}

static double f_all(const double *y) { return f(y, N, 1); }

int main(void) {
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.1 * i + 0.3;
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) v[i] = i == j;
    double d = __parad_fwddiff((void *)f, x, v, N, 1);
    double want = 0;
    int k = j % K;
    double w = x[k] + x[k] * x[k];
    want += cos(x[j]) * w;
    if (j < K) { /* x_k is also the weight of its own sum */
      double a = 0;
      for (int i = j; i < N; i += K) a += sin(x[i]);
      want += a * (1 + 2 * x[j]);
    }
    CHECK_CLOSE(d, want, 1e-12);
    CHECK_CLOSE(d, fd_component(f_all, x, N, j, 1e-6), 1e-7);
  }
  return check_done();
}
