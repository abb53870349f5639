/* syrk: the lower triangle of D = alpha A A^T + beta C, A n x m, parallel over D's rows (dynamic: the rows
 * grow); J(A, C) = sum_{j <= i} W_ij D_ij. Hand-written adjoint: with S = W + W^T over the lower triangle
 * (its diagonal doubled), dJ/dA = alpha S A, and dJ/dC = beta W on the lower triangle. */
#include "kernel.h"

enum { N = 350, M = 350 };
static const double alpha = 1.5, beta = 0.8;
static double *W, *D, *dD, *S;

static double syrk(const double *restrict A, const double *restrict C, double *restrict D, const double *restrict W) {
  double J = 0;
#pragma omp parallel for schedule(dynamic, 8) reduction(+ : J)
  for (int i = 0; i < N; i++) {
    const double *a = A + (size_t)i * M;
    for (int j = 0; j <= i; j++) {
      const double *b = A + (size_t)j * M;
      double s = 0;
      for (int k = 0; k < M; k++) s += a[k] * b[k];
      D[(size_t)i * N + j] = alpha * s + beta * C[(size_t)i * N + j];
      J += W[(size_t)i * N + j] * D[(size_t)i * N + j];
    }
  }
  return J;
}

#define A_(x) (x)
#define C_(x) ((x) + N * M)

static double primal(const double *x) { return syrk(A_(x), C_(x), D, W); }

static void gradient(const double *x, double *g) {
  kernel_zero(dD, sizeof(double) * N * N);
  __parad_autodiff((void *)syrk, A_(x), A_(g), C_(x), C_(g), D, dD, parad_const, W);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)syrk, A_(x), A_(v), C_(x), C_(v), D, dD, parad_const, W);
}

/* gA row i = alpha sum_j S_ij (A row j): a gather, each thread its own rows, streaming rows of A. */
static double hand(const double *x, double *g) {
  const double *A = A_(x);
  double *gA = A_(g), *gC = C_(g);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double w = j < i ? W[(size_t)i * N + j] : j > i ? W[(size_t)j * N + i] : 2 * W[(size_t)i * N + i];
      S[(size_t)i * N + j] = alpha * w;
      gC[(size_t)i * N + j] = j <= i ? beta * W[(size_t)i * N + j] : 0;
    }
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) {
    double *ga = gA + (size_t)i * M;
    for (int k = 0; k < M; k++) ga[k] = 0;
    for (int j = 0; j < N; j++) {
      double s = S[(size_t)i * N + j];
      for (int k = 0; k < M; k++) ga[k] += s * A[(size_t)j * M + k];
    }
  }
  return primal(x);
}

static void init(double *x) {
  W = malloc(sizeof(double) * N * N), D = malloc(sizeof(double) * N * N), dD = malloc(sizeof(double) * N * N);
  S = malloc(sizeof(double) * N * N);
  rng_seed(2);
  for (long i = 0; i < N * M + N * N; i++) x[i] = rng_range(-1, 1);
  for (long i = 0; i < N * N; i++) W[i] = rng_range(-1, 1);
}

int main(void) {
  static const Kernel k = {.name = "syrk",
                           .title = "lower triangle of D = alpha A A^T + beta C, A 350 x 350, J = sum W . D",
                           .parallel = 1,
                           .n = N * M + N * N,
                           .iterations = (double)N * (N + 1) / 2 * M,
                           .iteration = "multiply-add",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
