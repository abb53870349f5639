// A '#pragma omp parallel' region over shared arrays, with an 'omp for' inside: every thread reads the shared
// input x (also its neighbours' elements, which other threads own) and writes its part of the shared output
// y_i = c_i x_i x_{i+1} + exp(-x_i) (indices mod n); c is constant. Reverse mode seeds y's shadow with a
// weight vector w and returns J^T w in dx; the adjoints of x_{i+1} come from other threads' iterations, so
// they are added concurrently into dx. Checked against the analytic J^T w (tolerance 1e-12, rounding only),
// against the forward tangent of w . y along every unit direction (1e-12), and against central finite
// differences of w . y (h = 1e-6, tolerance 1e-7: truncation h^2 f''' ~ 1e-12, rounding eps/h ~ 1e-10). The
// primal y written by the reverse call is checked too.
// RUN: %parad-cc %cflags -fopenmp %s -o %t && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=4 %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
void __parad_fwddiff(void *, ...);

enum { N = 37 };

__attribute__((noinline)) static void kernel(const double *x, const double *c, double *y, int n) {
#pragma omp parallel shared(x, c, y)
  {
#pragma omp for
    for (int i = 0; i < n; i++) y[i] = c[i] * x[i] * x[(i + 1) % n] + exp(-x[i]);
  }
}

static double X0[N], C[N], W[N];

static double weighted(void *ctx, double t) {
  int k = *(int *)ctx;
  double x[N], y[N], s = 0;
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == k) * t;
  kernel(x, C, y, N);
  for (int i = 0; i < N; i++) s += W[i] * y[i];
  return s;
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N];
  for (int i = 0; i < N; i++) {
    X0[i] = x[i] = sin(0.9 * i) + 0.2;
    C[i] = 1 + 0.1 * cos(1.7 * i);
    W[i] = dy[i] = 0.5 - 0.03 * i;
  }
  __parad_autodiff((void *)kernel, x, dx, parad_const, C, y, dy, parad_const, N);
  for (int i = 0; i < N; i++) CHECK_CLOSE(y[i], C[i] * x[i] * x[(i + 1) % N] + exp(-x[i]), 1e-14);
  for (int k = 0; k < N; k++) {
    int km = (k + N - 1) % N;
    double want = W[k] * (C[k] * x[(k + 1) % N] - exp(-x[k])) + W[km] * C[km] * x[km];
    CHECK_CLOSE(dx[k], want, 1e-12);
    double e[N] = {0}, ty[N], s = 0;
    e[k] = 1;
    __parad_fwddiff((void *)kernel, x, e, parad_const, C, y, ty, parad_const, N);
    for (int i = 0; i < N; i++) s += W[i] * ty[i];
    CHECK_CLOSE(dx[k], s, 1e-12);
    CHECK_CLOSE(dx[k], fd_central(weighted, &k, 0, 1e-6), 1e-7);
  }
  return check_done();
}
