// An indirect (gather) access inside a 'parallel for': y_i += w sin(x_{idx_i}) with an index array in which
// several i share the same idx_i (idx_i = (3 i) mod m, m < n), so in the reverse sweep the adjoints scatter
// into dx from several iterations, run by different threads, into the same element; w is an active scalar
// whose adjoint collects from every iteration. y is input and output (its shadow seeded with v; the adjoint of
// the input y is v again). Analytic: dx_j = sum_{i: idx_i = j} v_i w cos(x_j), dw = sum_i v_i sin(x_{idx_i})
// (tolerance 1e-12); forward tangents of v . y along every direction of x and along w (1e-12); central finite
// differences of v . y (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 && OMP_NUM_THREADS=4 %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 48, M = 11 };

__attribute__((noinline)) static void gather(double *y, const double *x, const int *idx, double w, int n) {
#pragma omp parallel for schedule(dynamic, 4)
  for (int i = 0; i < n; i++) y[i] += w * sin(x[idx[i]]);
}

static double X0[M], V[N];
static int IDX[N];

static double along(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[M], y[N], s = 0;
  for (int j = 0; j < M; j++) x[j] = X0[j] + (j == k) * t;
  for (int i = 0; i < N; i++) y[i] = 0.1 * i;
  gather(y, x, IDX, 1.7 + (k == M) * t, N);
  for (int i = 0; i < N; i++) s += V[i] * y[i];
  return s;
}

int main(void) {
  double x[M], dx[M] = {0}, y[N], dy[N], w = 1.7, e[M], want[M] = {0}, wantw = 0;
  for (int j = 0; j < M; j++) X0[j] = x[j] = 0.3 * j - 1.1;
  for (int i = 0; i < N; i++) IDX[i] = (3 * i) % M, V[i] = dy[i] = cos(0.2 * i), y[i] = 0.1 * i;
  double dw = __parad_autodiff((void *)gather, y, dy, x, dx, parad_const, IDX, w, parad_const, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(y[i], 0.1 * i + w * sin(x[IDX[i]]), 1e-14);
    CHECK_CLOSE(dy[i], V[i], 1e-14);
    want[IDX[i]] += V[i] * w * cos(x[IDX[i]]);
    wantw += V[i] * sin(x[IDX[i]]);
  }
  CHECK_CLOSE(dw, wantw, 1e-12);
  for (int k = 0; k <= M; k++) {
    double yy[N], ty[N] = {0}, s = 0;
    for (int i = 0; i < N; i++) yy[i] = 0.1 * i;
    for (int j = 0; j < M; j++) e[j] = j == k;
    __parad_fwddiff((void *)gather, yy, ty, x, e, parad_const, IDX, w, (double)(k == M), parad_const, N);
    for (int i = 0; i < N; i++) s += V[i] * ty[i];
    double d = k < M ? dx[k] : dw;
    if (k < M) CHECK_CLOSE(dx[k], want[k], 1e-12);
    CHECK_CLOSE(d, s, 1e-12);
    CHECK_CLOSE(s, fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
