// An optimisation library in a file of its own (Inputs/optimiser), given the objective as a pointer, asks
// for its gradient and for directional derivatives: the requests wait for the link, where the program's
// objectives are seen (before, refused as the library compiled: "the first argument must be a function
// named in this file"). Two objectives of this file, one with a parallel loop; gradients against the
// analytic ones (1e-12) and central differences (h = 1e-6, 1e-6 relative), directional derivatives against
// the gradients (1e-12); descent from a far point must bring the smooth one to its minimum (gradient
// under 1e-6). File by file, through an archive, at 1 and 2 threads; at -O0 in one command.
//   bowl(x) = sum (i + 1) (x_i - 1)^2 + x_0^2 x_1^2;  ripple(x) = sum_i cos(x_i) x_{i+1} + x_i^2 / 4
// RUN: rm -rf %t && mkdir -p %t
// RUN: %parad-cc %cflags -fopenmp -I%S/Inputs/optimiser -c %s -o %t/main.o
// RUN: %parad-cc %cflags -I%S/../include -c %S/Inputs/optimiser/optimiser.c -o %t/optimiser.o
// RUN: %parad-cc -fopenmp %t/main.o %t/optimiser.o -o %t/prog -lm && OMP_NUM_THREADS=1 %t/prog && OMP_NUM_THREADS=2 %t/prog
// RUN: rm -f %t/libopt.a && %parad-llvm-ar rcs %t/libopt.a %t/optimiser.o
// RUN: %parad-cc -fopenmp %t/main.o -L%t -lopt -o %t/prog_ar -lm && OMP_NUM_THREADS=2 %t/prog_ar
// RUN: %parad-cc -O0 -fopenmp -I%S/../include -I%S/Inputs/optimiser %s %S/Inputs/optimiser/optimiser.c -o %t/prog0 -lm && OMP_NUM_THREADS=2 %t/prog0
#include <math.h>
#include "check.h"
#include "optimiser.h"

enum { N = 6 };

static double bowl(const double *x, int n) {
  double s = x[0] * x[0] * x[1] * x[1];
  for (int i = 0; i < n; i++) s += (i + 1) * (x[i] - 1) * (x[i] - 1);
  return s;
}

static double ripple(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i + 1 < n ? cos(x[i]) * x[i + 1] : 0) + x[i] * x[i] / 4;
  return s;
}

static void exact(objective f, const double *x, double *g) {
  for (int j = 0; j < N; j++)
    if (f == bowl)
      g[j] = 2 * (j + 1) * (x[j] - 1) + (j == 0 ? 2 * x[0] * x[1] * x[1] : j == 1 ? 2 * x[1] * x[0] * x[0] : 0);
    else
      g[j] = (j + 1 < N ? -sin(x[j]) * x[j + 1] : 0) + (j ? cos(x[j - 1]) : 0) + x[j] / 2;
}

static void check_at(objective f, const double *x) {
  double g[N], want[N];
  objective_gradient(f, x, g, N);
  exact(f, x, want);
  for (int j = 0; j < N; j++) {
    double xp[N], xm[N], v[N] = {0}, h = 1e-6;
    for (int i = 0; i < N; i++) xp[i] = xm[i] = x[i];
    xp[j] += h, xm[j] -= h, v[j] = 1;
    CHECK_CLOSE(g[j], want[j], 1e-12);
    CHECK_CLOSE(g[j], (f(xp, N) - f(xm, N)) / (2 * h), 1e-6);
    CHECK_CLOSE(directional(f, x, v, N), g[j], 1e-12);
  }
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.4 * sin(2.1 * i);
  check_at(bowl, x);
  check_at(ripple, x);
  for (int i = 0; i < N; i++) x[i] = 3 - i;
  descend(bowl, x, N, 400);
  double g[N];
  objective_gradient(bowl, x, g, N);
  for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], 0, 1e-6);
  return check_done();
}
