// A checkpointed loop whose steps create tasks outside a parallel region of their own (a helper's tasks,
// then a taskwait), run by each thread of a region of the program's. Another thread of that region's
// team may run such a task while its own step runs, and the task's notes would go to the wrong loop:
// the gradient was silently wrong or the program crashed. At one thread the gradient is right (central
// differences, h = 1e-6, 1e-6); at two the runtime stops with a message and status 70. At -O0 (at -O2
// the task's shared block is refused at compile time: its copy moves data of a type Parad cannot tell).
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t -lm && OMP_NUM_THREADS=1 %t
// RUN: OMP_NUM_THREADS=2 not %t 2>&1 | FileCheck %s
// CHECK: parad runtime: checkpointed loop: its steps create OpenMP tasks outside a parallel region of their own, and the loop runs inside a parallel region
#include <math.h>
#include <stdlib.h>
#include "check.h"

void __parad_checkpoint_loop(void);
void __parad_autodiff(void *, ...);

enum { N = 40, STEPS = 6, ROWS = 4 };

__attribute__((noinline)) static void update(double *u, double *v, double k) {
  for (int c = 0; c < 2; c++) {
#pragma omp task firstprivate(c) shared(u, v, k)
    for (int i = c * 20; i < (c + 1) * 20; i++)
      if (i > 0 && i < N - 1) v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.01 * sin(u[i]);
  }
#pragma omp taskwait
}

__attribute__((noinline)) static double heat(const double *u0, double k) {
  double *u = malloc(sizeof(double) * N), *v = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++) u[i] = v[i] = u0[i];
  for (int t = 0; t < STEPS; t++) {
    __parad_checkpoint_loop();
    update(u, v, k);
    double *w = u;
    u = v, v = w;
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += (i % 7) * u[i] * u[i];
  free(u), free(v);
  return J;
}

double rows(const double *x) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int r = 0; r < ROWS; r++) s += heat(x, 0.1 + 0.01 * r);
  return s;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.01 * i;
  __parad_autodiff((void *)rows, x, dx);
  for (int i = 0; i < N; i += 7) CHECK_CLOSE(dx[i], fd_component(rows, x, N, i, 1e-6), 1e-6);
  return check_done();
}
