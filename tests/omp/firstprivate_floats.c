// Float variables made firstprivate: clang passes each to the outlined function in a word, the float's bits
// its low half (at -O2 truncated and bitcast back, at -O0 stored and read back as a float). The adjoint
// of such a word was taken as a double's: each thread's float adjoint, its bits read as a double, was
// added to the others' as doubles (at 2 threads 1.25e38 where 2.85 is right, at -O0), or refused at -O1
// and up ("floats of different types packed into one integer"). The word's lanes now come from how its
// bits are used, its own size only where nothing tells (reverse/rev_lanes.c, guess). Shapes: a parallel
// for with firstprivate(c0), a parallel region with firstprivate(a, b) around a worksharing loop, a float
// and an int firstprivate together, a double for comparison. Gradients against analytic derivatives
// (floats 1e-5, double 1e-12) and the tangents, at 1 to 3 threads, -O0, -O1 and -O2.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t
// RUN: %parad-cc -O1 -fopenmp -I%S/../include %s -o %t1 && OMP_NUM_THREADS=3 %t1
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0 && OMP_NUM_THREADS=3 %t0
#include "check.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 40 };

static void scaled_squares(const float *x, float *y, int n, const float *coef) {
  float c0 = coef[0];
#pragma omp parallel for firstprivate(c0)
  for (int i = 0; i < n; i++) y[i] = c0 * x[i] * x[i];
}

static void two_in_region(const float *x, float *y, int n, const float *coef) {
  float a = coef[0], b = coef[1];
#pragma omp parallel firstprivate(a, b)
  {
    a = a * 2; /* each thread's copy, changed before use */
#pragma omp for
    for (int i = 0; i < n; i++) y[i] = a * x[i] + b * b;
  }
}

static void with_an_int(const float *x, float *y, int n, const float *coef) {
  float c = coef[0];
  int shift = 3;
#pragma omp parallel for firstprivate(c, shift)
  for (int i = 0; i < n; i++) y[i] = c * x[(i + shift) % n];
}

static void in_double(const double *x, double *y, int n, const double *coef) {
  double c0 = coef[0];
#pragma omp parallel for firstprivate(c0)
  for (int i = 0; i < n; i++) y[i] = c0 * x[i] * x[i];
}

int main(void) {
  float x[N], dx[N], y[N], dy[N], coef[2] = {1.5f, -0.7f}, dc[2], vc[2] = {1, 0}, zero[N] = {0}, ty[N];
  double xd[N], dxd[N] = {0}, yd[N], dyd[N], cd[1] = {1.5}, dcd[1] = {0};
  float sq = 0, sum = 0;
  for (int i = 0; i < N; i++) x[i] = 0.05f * (float)i - 0.6f, xd[i] = x[i], sq += x[i] * x[i], sum += x[i];

  for (int i = 0; i < N; i++) dy[i] = 1, dx[i] = 0;
  dc[0] = dc[1] = 0;
  __parad_autodiff((void *)scaled_squares, x, dx, y, dy, N, coef, dc);
  CHECK_CLOSE(dc[0], sq, 1e-5);
  CHECK_CLOSE(dx[7], 2 * coef[0] * x[7], 1e-5);
  __parad_fwddiff((void *)scaled_squares, x, zero, y, ty, N, coef, vc);
  CHECK_CLOSE(ty[7], x[7] * x[7], 1e-5);

  for (int i = 0; i < N; i++) dy[i] = 1, dx[i] = 0;
  dc[0] = dc[1] = 0;
  __parad_autodiff((void *)two_in_region, x, dx, y, dy, N, coef, dc);
  CHECK_CLOSE(dc[0], 2 * sum, 1e-5);
  CHECK_CLOSE(dc[1], 2 * coef[1] * N, 1e-5);
  CHECK_CLOSE(dx[5], 2 * coef[0], 1e-5);

  for (int i = 0; i < N; i++) dy[i] = 1, dx[i] = 0;
  dc[0] = dc[1] = 0;
  __parad_autodiff((void *)with_an_int, x, dx, y, dy, N, coef, dc);
  CHECK_CLOSE(dc[0], sum, 1e-5);
  CHECK_CLOSE(dx[11], coef[0], 1e-5);

  for (int i = 0; i < N; i++) dyd[i] = 1;
  __parad_autodiff((void *)in_double, xd, dxd, yd, dyd, N, cd, dcd);
  double sqd = 0;
  for (int i = 0; i < N; i++) sqd += xd[i] * xd[i];
  CHECK_CLOSE(dcd[0], sqd, 1e-12);
  return check_done();
}
