// A global pointer to a heap block (set in main), read in a parallel region through a choice between the
// block and an argument's memory made by a short-circuit condition: `(a || b) ? G[2] : p[1]`. In the
// region's function the optimiser merges the two addresses in a phi that takes the global along two
// edges; the analysis of globals holding blocks took that for two ways into the global and refused it
// ("this pointer phi needs a shadow for memory that has none"; found by the OpenMP fuzzer, seed 19637).
// Gradient against tangents along each unit direction (1e-10) and central differences (1e-6), at 1 and
// 3 threads, -O2 and -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double *G;

static double f(const double *x) {
  memset(G, 0, 8 * sizeof *G);
  for (int i = 0; i < 8; i++) G[i] = sin(x[i % 3] * (i + 1));
  const double *p = x + 1;
  double r = 0;
#pragma omp parallel reduction(+ : r)
  {
    double v = atan((cos(x[0]) * sin(x[1]) > 0.125 || tan(x[2]) >= -0.1) ? G[2] : p[1]);
    r += v;
  }
  return r + G[3] * x[2];
}

int main(void) {
  G = calloc(8, sizeof *G);
  double x[3] = {0.3, 0.7, -0.4};
  CHECK_GRADIENT(f, x, 3, 1e-10, 1e-5, 1e-6);
  double y[3] = {-0.9, -0.7, -0.4}; /* the other side of the choice */
  CHECK_GRADIENT(f, y, 3, 1e-10, 1e-5, 1e-6);
  free(G);
  return check_done();
}
