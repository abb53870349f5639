/* covariance: the covariance matrix of m variables over n samples (X n x m, a sample per row): the
 * columns' means, the centred data transposed (a variable's samples contiguous), and the upper triangle of
 * cov = Xc^T Xc / (n - 1), each loop parallel over variables; J(X) = sum_{j <= k} W_jk cov_jk.
 * Hand-written adjoint: with S = W + W^T over the upper triangle (its diagonal doubled), the centred data's
 * adjoint is gXc_j = sum_k S_jk Xc_k / (n - 1) (variable j's samples), and centring subtracts its mean:
 * dJ/dX_ij = gXc_j[i] - (1/n) sum_i' gXc_j[i']. */
#include "kernel.h"

enum { N = 500, M = 350 };
static double *W, *mean, *dmean, *Xc, *dXc, *cov, *dcov, *S, *G;

static double covariance(const double *restrict X, double *restrict mean, double *restrict Xc,
                         double *restrict cov, const double *restrict W) {
#pragma omp parallel for schedule(static)
  for (int j = 0; j < M; j++) {
    double s = 0;
    for (int i = 0; i < N; i++) s += X[(size_t)i * M + j];
    mean[j] = s / N;
    for (int i = 0; i < N; i++) Xc[(size_t)j * N + i] = X[(size_t)i * M + j] - mean[j];
  }
  double J = 0;
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : J)
  for (int j = 0; j < M; j++)
    for (int k = j; k < M; k++) {
      double s = 0;
      for (int i = 0; i < N; i++) s += Xc[(size_t)j * N + i] * Xc[(size_t)k * N + i];
      cov[(size_t)j * M + k] = s / (N - 1);
      J += W[(size_t)j * M + k] * cov[(size_t)j * M + k];
    }
  return J;
}

static double primal(const double *x) { return covariance(x, mean, Xc, cov, W); }

static void gradient(const double *x, double *g) {
  kernel_zero(dmean, sizeof(double) * M), kernel_zero(dXc, sizeof(double) * M * N), kernel_zero(dcov, sizeof(double) * M * M);
  __parad_autodiff((void *)covariance, x, g, mean, dmean, Xc, dXc, cov, dcov, parad_const, W);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)covariance, x, v, mean, dmean, Xc, dXc, cov, dcov, parad_const, W);
}

static double hand(const double *x, double *g) {
  double J = primal(x); /* leaves Xc */
#pragma omp parallel for schedule(static)
  for (int j = 0; j < M; j++)
    for (int k = 0; k < M; k++)
      S[(size_t)j * M + k] = (k > j   ? W[(size_t)j * M + k]
                              : k < j ? W[(size_t)k * M + j]
                                      : 2 * W[(size_t)j * M + j]) /
                             (N - 1);
#pragma omp parallel for schedule(static)
  for (int j = 0; j < M; j++) {
    double *gj = G + (size_t)j * N, s = 0;
    for (int i = 0; i < N; i++) gj[i] = 0;
    for (int k = 0; k < M; k++) {
      double w = S[(size_t)j * M + k];
      for (int i = 0; i < N; i++) gj[i] += w * Xc[(size_t)k * N + i];
    }
    for (int i = 0; i < N; i++) s += gj[i];
    for (int i = 0; i < N; i++) g[(size_t)i * M + j] = gj[i] - s / N;
  }
  return J;
}

static void init(double *x) {
  W = malloc(sizeof(double) * M * M), mean = malloc(sizeof(double) * M), dmean = malloc(sizeof(double) * M);
  Xc = malloc(sizeof(double) * M * N), dXc = malloc(sizeof(double) * M * N), G = malloc(sizeof(double) * M * N);
  cov = malloc(sizeof(double) * M * M), dcov = malloc(sizeof(double) * M * M), S = malloc(sizeof(double) * M * M);
  rng_seed(3);
  for (long i = 0; i < N * M; i++) x[i] = rng_uniform();
  for (long i = 0; i < M * M; i++) W[i] = rng_range(-1, 1);
}

int main(void) {
  static const Kernel k = {.name = "covariance",
                           .title = "covariance of 350 variables over 500 samples, J = sum W . cov",
                           .parallel = 1,
                           .n = N * M,
                           .iterations = (double)M * (M + 1) / 2 * N,
                           .iteration = "multiply-add",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
