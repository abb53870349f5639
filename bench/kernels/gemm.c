/* gemm: D = alpha A B + beta C, with A m x p, B p x q, C and D m x q, parallel over D's rows;
 * J(A, B, C) = sum_ij W_ij D_ij. Hand-written adjoint: dJ/dA = alpha W B^T, dJ/dB = alpha A^T W,
 * dJ/dC = beta W. */
#include "kernel.h"

enum { M = 500, P = 500, Q = 500 };
static const double alpha = 1.5, beta = 0.8;
static double *W, *D, *dD, *BT;

static double gemm(const double *restrict A, const double *restrict B, const double *restrict C,
                   double *restrict D, const double *restrict W) {
  double J = 0;
#pragma omp parallel for schedule(static) reduction(+ : J)
  for (int i = 0; i < M; i++) {
    double *d = D + (size_t)i * Q;
    for (int j = 0; j < Q; j++) d[j] = beta * C[(size_t)i * Q + j];
    for (int k = 0; k < P; k++) {
      double a = alpha * A[(size_t)i * P + k];
      for (int j = 0; j < Q; j++) d[j] += a * B[(size_t)k * Q + j];
    }
    for (int j = 0; j < Q; j++) J += W[(size_t)i * Q + j] * d[j];
  }
  return J;
}

#define A_(x) (x)
#define B_(x) ((x) + M * P)
#define C_(x) ((x) + M * P + P * Q)

static double primal(const double *x) { return gemm(A_(x), B_(x), C_(x), D, W); }

static void gradient(const double *x, double *g) {
  kernel_zero(dD, sizeof(double) * M * Q);
  __parad_autodiff((void *)gemm, A_(x), A_(g), B_(x), B_(g), C_(x), C_(g), D, dD, parad_const, W);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)gemm, A_(x), A_(v), B_(x), B_(v), C_(x), C_(v), D, dD, parad_const, W);
}

/* Both products in the order that streams rows (so that they vectorise as the primal does): B^T first,
 * then gA row i = alpha sum_j W[i][j] (B^T row j), and gB row k = alpha sum_i A[i][k] (W row i), each
 * thread writing its own rows. */
static double hand(const double *x, double *g) {
  const double *A = A_(x), *B = B_(x);
  double *gA = A_(g), *gB = B_(g), *gC = C_(g);
#pragma omp parallel for schedule(static)
  for (int j = 0; j < Q; j++)
    for (int k = 0; k < P; k++) BT[(size_t)j * P + k] = B[(size_t)k * Q + j];
#pragma omp parallel for schedule(static)
  for (int i = 0; i < M; i++) {
    double *a = gA + (size_t)i * P;
    for (int k = 0; k < P; k++) a[k] = 0;
    for (int j = 0; j < Q; j++) {
      double w = alpha * W[(size_t)i * Q + j];
      for (int k = 0; k < P; k++) a[k] += w * BT[(size_t)j * P + k];
    }
    for (int j = 0; j < Q; j++) gC[(size_t)i * Q + j] = beta * W[(size_t)i * Q + j];
  }
#pragma omp parallel for schedule(static)
  for (int k = 0; k < P; k++) {
    double *b = gB + (size_t)k * Q;
    for (int j = 0; j < Q; j++) b[j] = 0;
    for (int i = 0; i < M; i++) {
      double a = alpha * A[(size_t)i * P + k];
      for (int j = 0; j < Q; j++) b[j] += a * W[(size_t)i * Q + j];
    }
  }
  return primal(x);
}

static void init(double *x) {
  W = malloc(sizeof(double) * M * Q), D = malloc(sizeof(double) * M * Q), dD = malloc(sizeof(double) * M * Q);
  BT = malloc(sizeof(double) * P * Q);
  rng_seed(1);
  for (long i = 0; i < M * P + P * Q + M * Q; i++) x[i] = rng_range(-1, 1);
  for (long i = 0; i < M * Q; i++) W[i] = rng_range(-1, 1);
}

int main(void) {
  static const Kernel k = {.name = "gemm",
                           .title = "D = alpha A B + beta C, 500 x 500 x 500, J = sum W . D",
                           .parallel = 1,
                           .n = M * P + P * Q + M * Q,
                           .iterations = (double)M * P * Q,
                           .iteration = "multiply-add",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
