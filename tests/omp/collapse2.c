// 'collapse(2)': two nested loops flattened into one iteration space shared by the team. First an output
// matrix Z_ij = x_i y_j + sin(x_i - y_j) (static schedule); then a reduction over a collapsed dynamic loop, f
// = sum_ij (x_i - y_j)^2 exp(-0.1 x_i y_j). Reverse mode: Z's shadow seeded with a weight matrix W gives dx_i
// = sum_j W_ij (y_j + cos(x_i - y_j)), dy_j = sum_i W_ij (x_i - cos(x_i - y_j)) (analytic, tolerance 1e-12);
// f's gradient against its analytic form (1e-12); both against forward tangents along every unit direction of
// x and y (1e-12), and f's forward tangents against central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=2 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void __parad_fwddiff_v(void *, ...);

enum { M = 7, P = 9 };

__attribute__((noinline)) static void outer(const double *x, const double *y, double *z, int m, int p) {
#pragma omp parallel for collapse(2) schedule(static)
  for (int i = 0; i < m; i++)
    for (int j = 0; j < p; j++) z[i * p + j] = x[i] * y[j] + sin(x[i] - y[j]);
}

__attribute__((noinline)) static double energy(const double *x, const double *y, int m, int p) {
  double s = 0;
#pragma omp parallel for collapse(2) schedule(dynamic, 5) reduction(+ : s)
  for (int i = 0; i < m; i++)
    for (int j = 0; j < p; j++) {
      double d = x[i] - y[j];
      s += d * d * exp(-0.1 * x[i] * y[j]);
    }
  return s;
}

static double X0[M], Y0[P];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[M], y[P];
  for (int i = 0; i < M; i++) x[i] = X0[i] + (i == k) * t;
  for (int j = 0; j < P; j++) y[j] = Y0[j] + (M + j == k) * t;
  return energy(x, y, M, P);
}

int main(void) {
  double x[M], y[P], z[M * P], w[M * P], dz[M * P], dx[M] = {0}, dy[P] = {0}, ex[M] = {0}, ey[P] = {0};
  for (int i = 0; i < M; i++) X0[i] = x[i] = 0.3 * i - 0.8;
  for (int j = 0; j < P; j++) Y0[j] = y[j] = cos(0.9 * j);
  for (int q = 0; q < M * P; q++) w[q] = dz[q] = sin(0.21 * q) + 0.1;
  __parad_autodiff((void *)outer, x, dx, y, dy, z, dz, parad_const, M, parad_const, P);
  double ex_sum[M] = {0}, ey_sum[P] = {0};
  for (int i = 0; i < M; i++)
    for (int j = 0; j < P; j++) {
      CHECK_CLOSE(z[i * P + j], x[i] * y[j] + sin(x[i] - y[j]), 1e-14);
      ex_sum[i] += w[i * P + j] * (y[j] + cos(x[i] - y[j]));
      ey_sum[j] += w[i * P + j] * (x[i] - cos(x[i] - y[j]));
    }
  for (int i = 0; i < M; i++) CHECK_CLOSE(dx[i], ex_sum[i], 1e-12);
  for (int j = 0; j < P; j++) CHECK_CLOSE(dy[j], ey_sum[j], 1e-12);
  double gx[M] = {0}, gy[P] = {0}, ax[M] = {0}, ay[P] = {0};
  __parad_autodiff((void *)energy, x, gx, y, gy, parad_const, M, parad_const, P);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < P; j++) {
      double d = x[i] - y[j], ee = exp(-0.1 * x[i] * y[j]);
      ax[i] += 2 * d * ee - 0.1 * y[j] * d * d * ee;
      ay[j] += -2 * d * ee - 0.1 * x[i] * d * d * ee;
    }
  for (int i = 0; i < M; i++) CHECK_CLOSE(gx[i], ax[i], 1e-12);
  for (int j = 0; j < P; j++) CHECK_CLOSE(gy[j], ay[j], 1e-12);
  for (int k = 0; k < M + P; k++) {
    for (int i = 0; i < M; i++) ex[i] = i == k;
    for (int j = 0; j < P; j++) ey[j] = M + j == k;
    double tz[M * P], s = 0;
    __parad_fwddiff_v((void *)outer, x, ex, y, ey, z, tz, parad_const, M, parad_const, P);
    for (int q = 0; q < M * P; q++) s += w[q] * tz[q];
    CHECK_CLOSE(k < M ? dx[k] : dy[k - M], s, 1e-12);
    double t = __parad_fwddiff((void *)energy, x, ex, y, ey, parad_const, M, parad_const, P);
    CHECK_CLOSE(k < M ? gx[k] : gy[k - M], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
