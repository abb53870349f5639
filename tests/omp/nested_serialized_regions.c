// A parallel loop whose body calls a function with a parallel loop of its own. With nesting off (libomp's
// default), the inner region runs on a team of one thread while the outer team's other threads run their
// own instances of it, and all of them add into the same adjoints (of x). Reverse mode took a team of one
// for a thread alone and added plainly, and planned what a thread owns from its own team only: 2 to 27 of
// 500 gradients were wrong at 2 and 3 threads, no message. The same with nesting on and the inner loop
// given num_threads(1). A thread now adds plainly only where no enclosing region is active, and owns
// nothing where one is.
//   s = sum_ij (x_i x_j cos(i - j))^2, ds/dx_a = 4 x_a sum_j x_j^2 cos(a - j)^2
// 200 gradients, each against that (1e-12), and one tangent.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: env OMP_MAX_ACTIVE_LEVELS=2 OMP_NUM_THREADS=3 %t
// RUN: %parad-cc %cflags -fopenmp -DINNER_ONE %s -o %t1 -lm && env OMP_MAX_ACTIVE_LEVELS=2 OMP_NUM_THREADS=3 %t1 && OMP_NUM_THREADS=2 %t1
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
extern int parad_const;

enum { N = 8, ROUNDS = 200 };

#ifdef INNER_ONE
#define INNER num_threads(1)
#else
#define INNER
#endif

static void row(const double *x, double *y, int i, int n) {
#pragma omp parallel for INNER
  for (int j = 0; j < n; j++) y[i * n + j] = x[i] * x[j] * cos(i - j);
}

static double loss(const double *x, int n) {
  double *y = malloc(sizeof(double) * (size_t)(n * n));
#pragma omp parallel for
  for (int i = 0; i < n; i++) row(x, y, i, n);
  double s = 0;
  for (int k = 0; k < n * n; k++) s += y[k] * y[k];
  free(y);
  return s;
}

int main(void) {
  double x[N], g[N], want[N], v[N], gv = 0;
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.17 * i, v[i] = cos(i);
  for (int a = 0; a < N; a++) {
    want[a] = 0;
    for (int j = 0; j < N; j++) want[a] += x[j] * x[j] * cos(a - j) * cos(a - j);
    want[a] *= 4 * x[a];
    gv += want[a] * v[a];
  }
  int wrong = 0;
  for (int r = 0; r < ROUNDS; r++) {
    for (int i = 0; i < N; i++) g[i] = 0;
    __parad_autodiff((void *)loss, x, g, parad_const, N);
    for (int a = 0; a < N; a++)
      if (!(fabs(g[a] - want[a]) <= 1e-12 * (fabs(want[a]) + 1))) {
        if (!wrong) CHECK_CLOSE(g[a], want[a], 1e-12); /* the first one shown */
        wrong++;
        break;
      }
  }
  CHECK_CLOSE((double)wrong, 0.0, 0);
  CHECK_CLOSE(__parad_fwddiff((void *)loss, x, v, parad_const, N), gv, 1e-12);
  return check_done();
}
