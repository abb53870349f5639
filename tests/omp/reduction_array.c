// 'reduction(+ : h[:m])' on array sections: each thread accumulates into a private copy of the array, and the
// copies are added into the original at the end. First on a local array h_j = sum_i sin(c_j x_i) (c constant),
// f = sum_j h_j^2; then on the caller's output array y, which already holds values (y_j += sum_i x_i^2 w_ij, w
// constant), with y's shadow seeded with an adjoint vector v. Analytic: df/dx_i = sum_j 2 h_j c_j cos(c_j
// x_i); v . y gives dx_i = sum_j v_j 2 x_i w_ij and dy_in = v (tolerance 1e-12). Forward tangents along every
// unit direction (1e-12), central finite differences of f (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=1 %t0 && OMP_NUM_THREADS=2 %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void __parad_fwddiff_v(void *, ...);

enum { N = 23, M = 6 };
static const double Cc[M] = {0.5, -1.0, 1.5, 0.25, 2.0, -0.75};

__attribute__((noinline)) static double hist(const double *x, int n) {
  double h[M] = {0};
#pragma omp parallel for reduction(+ : h[:M])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < M; j++) h[j] += sin(Cc[j] * x[i]);
  double s = 0;
  for (int j = 0; j < M; j++) s += h[j] * h[j];
  return s;
}

__attribute__((noinline)) static void accumulate(const double *x, const double *w, double *y, int n, int m) {
#pragma omp parallel for reduction(+ : y[:m]) schedule(dynamic, 2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) y[j] += x[i] * x[i] * w[i * m + j];
}

static double X0[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  return hist(x, N);
}

int main(void) {
  double x[N], dx[N] = {0}, gx[N] = {0}, e[N], w[N * M], y[M], dy[M], v[M], h[M] = {0};
  for (int i = 0; i < N; i++) X0[i] = x[i] = 0.9 * cos(0.61 * i) + 0.2;
  for (int q = 0; q < N * M; q++) w[q] = sin(0.3 * q) + 0.5;
  for (int j = 0; j < M; j++) y[j] = 1 + j, v[j] = dy[j] = 0.5 - 0.2 * j;
  __parad_autodiff((void *)hist, x, dx, parad_const, N);
  __parad_autodiff((void *)accumulate, x, gx, parad_const, w, y, dy, parad_const, N, parad_const, M);
  for (int j = 0; j < M; j++) {
    double want = 1 + j;
    for (int i = 0; i < N; i++) want += x[i] * x[i] * w[i * M + j], h[j] += sin(Cc[j] * x[i]);
    CHECK_CLOSE(y[j], want, 1e-13);
    CHECK_CLOSE(dy[j], v[j], 1e-14);
  }
  for (int k = 0; k < N; k++) {
    double a = 0, b = 0;
    for (int j = 0; j < M; j++) a += 2 * h[j] * Cc[j] * cos(Cc[j] * x[k]), b += v[j] * 2 * x[k] * w[k * M + j];
    CHECK_CLOSE(dx[k], a, 1e-12);
    CHECK_CLOSE(gx[k], b, 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == k;
    double t = __parad_fwddiff((void *)hist, x, e, parad_const, N);
    CHECK_CLOSE(dx[k], t, 1e-12);
    CHECK_CLOSE(t, fd_central(along, &k, 0, 1e-6), 1e-7);
    double yy[M], ty[M] = {0}, s = 0;
    for (int j = 0; j < M; j++) yy[j] = 1 + j;
    __parad_fwddiff_v((void *)accumulate, x, e, parad_const, w, yy, ty, parad_const, N, parad_const, M);
    for (int j = 0; j < M; j++) s += v[j] * ty[j];
    CHECK_CLOSE(gx[k], s, 1e-12);
  }
  return check_done();
}
