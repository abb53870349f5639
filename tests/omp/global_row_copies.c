// A stencil step into a second grid, then a parallel loop copying the interior back row by row, the grids
// global 2-D arrays (doubles, and floats in a second function). The optimiser turns each row's copy loop
// into a memcpy between the two globals at computed byte offsets, which no object's type describes; the
// memcpy carries the loop's type tag (double, float), and was refused ("cannot tell what this copy moves")
// before it was read. J = sum u_ij^2 (and its float twin). Gradient against forward tangents (1e-10;
// floats 1e-4) and central differences (h = 1e-6, 1e-6; floats h = 1e-2, 2e-3) at 1 to 3 threads, -O0.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && %t 1 && %t 2 && %t 3
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && %t0 2
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
float __parad_fwddiff_f(void *, ...) __asm__("__parad_fwddiff");

enum { N = 20, T = 3, NX = N * N };
static double u[N][N], un[N][N];
static float uf[N][N], unf[N][N];

__attribute__((noinline)) static double grid(const double *x) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) u[i][j] = x[i * N + j];
  for (int t = 0; t < T; t++) {
#pragma omp parallel for
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++) un[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) * u[i][j];
#pragma omp parallel for
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++) u[i][j] = un[i][j];
  }
  double J = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) J += u[i][j] * u[i][j];
  return J;
}

__attribute__((noinline)) static float grid_f(const float *x) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) uf[i][j] = x[i * N + j];
  for (int t = 0; t < T; t++) {
#pragma omp parallel for
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++) unf[i][j] = 0.25f * (uf[i - 1][j] + uf[i + 1][j] + uf[i][j - 1] + uf[i][j + 1]) * uf[i][j];
#pragma omp parallel for
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++) uf[i][j] = unf[i][j];
  }
  float J = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) J += uf[i][j] * uf[i][j];
  return J;
}

int main(int argc, char **argv) {
  omp_set_num_threads(argc > 1 ? atoi(argv[1]) : 2);
  static double x[NX], g[NX], v[NX];
  for (int i = 0; i < NX; i++) x[i] = 0.8 + 0.1 * sin(0.37 * i), v[i] = cos(0.11 * i);
  __parad_autodiff((void *)grid, x, g);
  double t = __parad_fwddiff((void *)grid, x, v), dot = 0;
  for (int i = 0; i < NX; i++) dot += g[i] * v[i];
  CHECK_CLOSE(t, dot, 1e-10);
  for (int j = 0; j < NX; j += 7) CHECK_CLOSE(g[j], fd_component(grid, x, NX, j, 1e-6), 1e-6);

  static float xf[NX], gf[NX], vf[NX];
  for (int i = 0; i < NX; i++) xf[i] = (float)x[i], vf[i] = (float)v[i];
  __parad_autodiff((void *)grid_f, xf, gf);
  float tf = __parad_fwddiff_f((void *)grid_f, xf, vf);
  double dotf = 0;
  for (int i = 0; i < NX; i++) dotf += (double)gf[i] * vf[i];
  CHECK_CLOSE(tf, dotf, 1e-4);
  for (int j = 0; j < NX; j += 23) {
    float keep = xf[j];
    xf[j] = keep + 1e-2f;
    double up = grid_f(xf);
    xf[j] = keep - 1e-2f;
    double down = grid_f(xf);
    xf[j] = keep;
    CHECK_CLOSE(gf[j], (up - down) / 2e-2, 2e-3);
  }
  return check_done();
}
