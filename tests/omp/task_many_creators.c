// Tasks created by every thread of a team, both modes: a work-shared loop in which each iteration creates
// two tasks (one computing a row's value, one scaling it by the row's input squared), joined only at the
// loop's barrier; the creators compute with active values too (each thread sums the inputs of the rows
// it created, and adds that in atomically), so each creator reverses its own tasks.
//   r_i = sum_k sin(x_k) x_{(i+k) mod n} / (1 + k);  q_i = r_i x_i^2;
//   f(x) = sum_i x_i / 10 + sum_i q_i + sum_i x_i r_i^2 / n.
// Gradients against tangents (1e-12) and central differences (1e-7), at 1, 2 and 4 threads at -O2, 3 at -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
double __parad_autodiff(void *, ...);

enum { N = 14 };

static double f(const double *x) {
  double r[N], q[N], s = 0;
#pragma omp parallel
  {
    double mine = 0;
#pragma omp for schedule(dynamic, 2)
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i) shared(r) depend(out : r[i])
      {
        double t = 0;
        for (int k = 0; k < N; k++) t += sin(x[k]) * x[(i + k) % N] / (1 + k);
        r[i] = t;
      }
#pragma omp task firstprivate(i) shared(r, q) depend(in : r[i])
      q[i] = r[i] * x[i] * x[i];
      mine += x[i];
    }
#pragma omp atomic
    s += mine / 10;
  }
  for (int i = 0; i < N; i++) s += q[i] + x[i] * r[i] * r[i] / N;
  return s;
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.13 * i - 0.8;
  CHECK_GRADIENT(f, x, N, 1e-12, 1e-6, 1e-7);
  return check_done();
}
