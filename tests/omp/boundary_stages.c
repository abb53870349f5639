// A time step as NPB-style codes write it: one parallel region per step, a 5-point stencil's worksharing
// loop into a second grid, a loop copying it back, and a loop setting the boundary rows from the rows
// next to them (periodic: row 0 from row N - 2, row N - 1 from row 1), each ended by its barrier; the grids
// global (as NPB's) in one function and passed by pointer in another, with a nonlinear term.
// J = sum u_ij^2 of the final grid. Gradient against forward tangents (tolerance 1e-10) and central
// differences (h = 1e-6, tolerance 1e-6) at 1 to 4 threads, and at -O0.
// The boundary loop's threads read the first and last rows' halves: each thread's range of the grid was
// the whole grid, no part of it its own, and its adjoint updates atomic (built with PARAD_COUNT_UPDATES,
// at 2 threads: 80% of the globals', 72% of the pointers'; a larger grid's gradient slower at 2 threads
// than at 1). Accesses apart by a barrier are noted per stage now (reverse/rev_shared.c "stages"): under 5%
// atomic at 2 and 4 threads (under 1%).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && %t 1 && %t 2 && %t 3 && %t 4
// RUN: env PARAD_COUNT_UPDATES=1 %parad-cc %cflags -DCOUNTED -fopenmp %s -o %t2 && %t2 2 && %t2 4
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && %t0 3
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic);

enum { N = 34, T = 3, NX = N * N };
static double u[N][N], un[N][N], f[N][N];

static double step_globals(const double *x) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) u[i][j] = x[i * N + j];
  for (int t = 0; t < T; t++) {
#pragma omp parallel
    {
#pragma omp for
      for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
          un[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) - f[i][j] * u[i][j] * u[i][j];
#pragma omp for
      for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++) u[i][j] = un[i][j];
#pragma omp for
      for (int j = 1; j < N - 1; j++) {
        u[0][j] = u[N - 2][j];
        u[N - 1][j] = u[1][j];
      }
    }
  }
  double J = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) J += u[i][j] * u[i][j];
  return J;
}

__attribute__((noinline)) static double globals(const double *x) { return step_globals(x); }

/* the same through pointers: a grid and its scratch grid */
__attribute__((noinline)) static double pointers(const double *x, double *g, double *gn) {
  for (int i = 0; i < NX; i++) g[i] = x[i];
  for (int t = 0; t < T; t++) {
#pragma omp parallel
    {
#pragma omp for
      for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++) {
          double c = g[i * N + j];
          gn[i * N + j] = 0.25 * (g[(i - 1) * N + j] + g[(i + 1) * N + j] + g[i * N + j - 1] + g[i * N + j + 1]) - f[i][j] * c * c;
        }
#pragma omp for
      for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++) g[i * N + j] = gn[i * N + j];
#pragma omp for
      for (int j = 1; j < N - 1; j++) {
        g[j] = g[(N - 2) * N + j];
        g[(N - 1) * N + j] = g[N + j];
      }
    }
  }
  double J = 0;
  for (int i = 0; i < NX; i++) J += g[i] * g[i];
  return J;
}

static double grid[NX], scratch[NX], dgrid[NX], dscratch[NX];
static double pointers_J(const double *x) { return pointers(x, grid, scratch); }

static void check(int which) {
  static double x[NX], g[NX], v[NX];
  for (int i = 0; i < NX; i++) x[i] = 0.5 + 0.2 * sin(0.37 * i), v[i] = cos(0.11 * i), g[i] = 0;
  double t, dot = 0;
  for (int i = 0; i < NX; i++) dgrid[i] = dscratch[i] = 0;
  if (which == 0) __parad_autodiff((void *)globals, x, g);
  else __parad_autodiff((void *)pointers, x, g, grid, dgrid, scratch, dscratch);
  for (int i = 0; i < NX; i++) dgrid[i] = dscratch[i] = 0;
  t = which == 0 ? __parad_fwddiff((void *)globals, x, v) : __parad_fwddiff((void *)pointers, x, v, grid, dgrid, scratch, dscratch);
  for (int i = 0; i < NX; i++) dot += g[i] * v[i];
  CHECK_CLOSE(t, dot, 1e-10);
  for (int j = 0; j < NX; j += 37) CHECK_CLOSE(g[j], fd_component(which == 0 ? globals : pointers_J, x, NX, j, 1e-6), 1e-6);
#ifdef COUNTED
  unsigned long long plain0, atomic0, plain1, atomic1;
  parad_adjoint_update_counts(&plain0, &atomic0);
  for (int i = 0; i < NX; i++) dgrid[i] = dscratch[i] = g[i] = 0;
  if (which == 0) __parad_autodiff((void *)globals, x, g);
  else __parad_autodiff((void *)pointers, x, g, grid, dgrid, scratch, dscratch);
  parad_adjoint_update_counts(&plain1, &atomic1);
  printf("%s: adjoint updates: %llu plain, %llu atomic\n", which ? "pointers" : "globals", plain1 - plain0, atomic1 - atomic0);
  CHECK_CLOSE(atomic1 - atomic0 < (plain1 - plain0) / 20, 1, 0);
#endif
}

int main(int argc, char **argv) {
  omp_set_num_threads(argc > 1 ? atoi(argv[1]) : 2);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) f[i][j] = 0.01 * cos(0.3 * i + 0.2 * j);
  check(0);
  check(1);
  return check_done();
}
