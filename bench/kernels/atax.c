/* atax: y = A^T (A x), A m x n, two matrix-vector products, both parallel over A's rows: tmp = A x row by
 * row, and y summed by a reduction over an array section (each thread adds its rows into a copy of y);
 * J(A, x) = sum_j w_j y_j^2. Hand-written adjoint: with gy = 2 w y and gt = A gy, dJ/dA_ij = gt_i x_j +
 * tmp_i gy_j and dJ/dx = A^T gt. */
#include "kernel.h"

enum { M = 4500, N = 4500 };
static double *w, *tmp, *dtmp, *y, *dy, *gy;

static double atax(const double *restrict A, const double *restrict x, double *restrict tmp,
                   double *restrict y, const double *restrict w) {
  for (int j = 0; j < N; j++) y[j] = 0;
#pragma omp parallel for schedule(static) reduction(+ : y[:N])
  for (int i = 0; i < M; i++) {
    const double *a = A + (size_t)i * N;
    double s = 0;
    for (int j = 0; j < N; j++) s += a[j] * x[j];
    tmp[i] = s;
    for (int j = 0; j < N; j++) y[j] += a[j] * s;
  }
  double J = 0;
  for (int j = 0; j < N; j++) J += w[j] * y[j] * y[j];
  return J;
}

#define A_(v) (v)
#define X_(v) ((v) + (size_t)M * N)

static double primal(const double *x) { return atax(A_(x), X_(x), tmp, y, w); }

static void gradient(const double *x, double *g) {
  kernel_zero(dtmp, sizeof(double) * M), kernel_zero(dy, sizeof(double) * N);
  __parad_autodiff((void *)atax, A_(x), A_(g), X_(x), X_(g), tmp, dtmp, y, dy, parad_const, w);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)atax, A_(x), A_(v), X_(x), X_(v), tmp, dtmp, y, dy, parad_const, w);
}

static double hand(const double *x, double *g) {
  const double *A = A_(x), *xv = X_(x);
  double J = primal(x), *gA = A_(g), *gx = X_(g);
  for (int j = 0; j < N; j++) gy[j] = 2 * w[j] * y[j], gx[j] = 0;
#pragma omp parallel for schedule(static) reduction(+ : gx[:N])
  for (int i = 0; i < M; i++) {
    const double *a = A + (size_t)i * N;
    double s = 0;
    for (int j = 0; j < N; j++) s += a[j] * gy[j];
    for (int j = 0; j < N; j++) gA[(size_t)i * N + j] = s * xv[j] + tmp[i] * gy[j], gx[j] += a[j] * s;
  }
  return J;
}

static void init(double *x) {
  w = malloc(sizeof(double) * N), tmp = malloc(sizeof(double) * M), dtmp = malloc(sizeof(double) * M);
  y = malloc(sizeof(double) * N), dy = malloc(sizeof(double) * N), gy = malloc(sizeof(double) * N);
  rng_seed(5);
  for (long i = 0; i < (long)M * N + N; i++) x[i] = rng_range(-1, 1);
  for (int j = 0; j < N; j++) w[j] = rng_uniform() / N;
}

int main(void) {
  static const Kernel k = {.name = "atax",
                           .title = "y = A^T (A x), A 4500 x 4500, J = sum w y^2",
                           .parallel = 1,
                           .n = (long)M * N + N,
                           .iterations = 2.0 * M * N,
                           .iteration = "multiply-add",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
