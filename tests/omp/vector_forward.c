// Vector forward mode (parad_width 2 and 4) through parallel regions: values captured by copy
// ('firstprivate(c, g)', a double and a float, which clang passes to the outlined function as integers, and
// whose tangents travel by address), a shared array read by every thread, a reduction, and a shared output
// array. f(x, y, c, g) = sum_i c x_i^2 + g sin(x_i), with y_i = c x_i + g written in the region;
// the objective is f + sum_i w_i y_i. Every lane of the vector tangent must equal the scalar forward tangent
// along the same direction (1e-12) and the analytic directional derivative (1e-12):
//   df = sum_i (2 c x_i + g cos x_i + w_i c) dx_i + (sum_i x_i^2 + w_i x_i) dc + (sum_i sin x_i + w_i) dg.
// Directions mix x's unit vectors with c and g, so that each lane differs.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=1 %t0 && OMP_NUM_THREADS=2 %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include "check.h"

typedef struct { double d[2]; } Two;
typedef struct { double d[4]; } Four;
Two __parad_fwddiff2(void *, ...);
Four __parad_fwddiff4(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 19 };

static double w(int i) { return 0.5 + 0.1 * i; }

__attribute__((noinline)) static double f(const double *x, double *y, double c, float g, int n) {
  double r = 0;
#pragma omp parallel for firstprivate(c, g) reduction(+ : r)
  for (int i = 0; i < n; i++) {
    r += c * x[i] * x[i] + g * sin(x[i]);
    y[i] = c * x[i] + g;
  }
  double s = r;
  for (int i = 0; i < n; i++) s += w(i) * y[i];
  return s;
}

/* the analytic directional derivative along (dx, dc, dg) */
static double want(const double *x, double c, double g, const double *dx, double dc, double dg) {
  double t = 0;
  for (int i = 0; i < N; i++)
    t += (2 * c * x[i] + g * cos(x[i]) + w(i) * c) * dx[i] + (x[i] * x[i] + w(i) * x[i]) * dc + (sin(x[i]) + w(i)) * dg;
  return t;
}

int main(void) {
  double x[N], y[N], dy[4][N] = {{0}}, dx[4][N], dc[4], c = 1.3;
  float g = 0.75f, dg[4];
  for (int i = 0; i < N; i++) x[i] = 0.3 * cos(0.9 * i) + 0.2;
  for (int l = 0; l < 4; l++) {
    for (int i = 0; i < N; i++) dx[l][i] = (i == 3 * l + 1) + 0.1 * l * (i == 0);
    dc[l] = 0.5 * (l == 1) + 0.25 * (l == 3);
    dg[l] = (float)(l == 2) - 0.5f * (l == 3);
  }
  double scalar[4];
  for (int l = 0; l < 4; l++) {
    scalar[l] = __parad_fwddiff((void *)f, x, dx[l], y, dy[l], c, dc[l], g, dg[l], N);
    CHECK_CLOSE(scalar[l], want(x, c, g, dx[l], dc[l], dg[l]), 1e-12);
  }
  Two t2 = __parad_fwddiff2((void *)f, parad_width, 2, x, dx[0], dx[1], y, dy[0], dy[1], c, dc[0], dc[1], g, dg[0], dg[1], N);
  for (int l = 0; l < 2; l++) CHECK_CLOSE(t2.d[l], scalar[l], 1e-12);
  Four t4 = __parad_fwddiff4((void *)f, parad_width, 4, x, dx[0], dx[1], dx[2], dx[3], y, dy[0], dy[1], dy[2], dy[3],
                             c, dc[0], dc[1], dc[2], dc[3], g, dg[0], dg[1], dg[2], dg[3], N);
  for (int l = 0; l < 4; l++) CHECK_CLOSE(t4.d[l], scalar[l], 1e-12);
  return check_done();
}
