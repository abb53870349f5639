/* correlation: the correlation matrix of m variables over n samples (X n x m, a sample per row): the
 * columns' means and standard deviations (a deviation under 0.1 taken as 1, so that a near-constant
 * variable does not blow up), the normalised data transposed (a variable's samples contiguous), and the
 * strict upper triangle of corr = Xn^T Xn (its diagonal is 1), each loop parallel over variables;
 * J(X) = sum_{j < k} W_jk corr_jk. No hand-written adjoint (the normalisation's is not short): checked
 * against finite differences. */
#include "kernel.h"

enum { N = 500, M = 350 };
static double *W, *stat, *dstat, *Xn, *dXn, *corr, *dcorr;

/* stat: the means (m), then the deviations (m) */
static double correlation(const double *restrict X, double *restrict stat, double *restrict Xn,
                          double *restrict corr, const double *restrict W) {
  double *mean = stat, *sd = stat + M;
#pragma omp parallel for schedule(static)
  for (int j = 0; j < M; j++) {
    double s = 0, q = 0;
    for (int i = 0; i < N; i++) s += X[(size_t)i * M + j];
    mean[j] = s / N;
    for (int i = 0; i < N; i++) q += (X[(size_t)i * M + j] - mean[j]) * (X[(size_t)i * M + j] - mean[j]);
    sd[j] = sqrt(q / N);
    if (sd[j] <= 0.1) sd[j] = 1;
    for (int i = 0; i < N; i++) Xn[(size_t)j * N + i] = (X[(size_t)i * M + j] - mean[j]) / (sqrt((double)N) * sd[j]);
  }
  double J = 0;
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : J)
  for (int j = 0; j < M; j++) {
    corr[(size_t)j * M + j] = 1;
    for (int k = j + 1; k < M; k++) {
      double s = 0;
      for (int i = 0; i < N; i++) s += Xn[(size_t)j * N + i] * Xn[(size_t)k * N + i];
      corr[(size_t)j * M + k] = s;
      J += W[(size_t)j * M + k] * s;
    }
  }
  return J;
}

static double primal(const double *x) { return correlation(x, stat, Xn, corr, W); }

static void gradient(const double *x, double *g) {
  kernel_zero(dstat, sizeof(double) * 2 * M), kernel_zero(dXn, sizeof(double) * M * N),
      kernel_zero(dcorr, sizeof(double) * M * M);
  __parad_autodiff((void *)correlation, x, g, stat, dstat, Xn, dXn, corr, dcorr, parad_const, W);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)correlation, x, v, stat, dstat, Xn, dXn, corr, dcorr, parad_const, W);
}

static void init(double *x) {
  W = malloc(sizeof(double) * M * M), stat = malloc(sizeof(double) * 2 * M), dstat = malloc(sizeof(double) * 2 * M);
  Xn = malloc(sizeof(double) * M * N), dXn = malloc(sizeof(double) * M * N);
  corr = malloc(sizeof(double) * M * M), dcorr = malloc(sizeof(double) * M * M);
  rng_seed(4);
  for (long i = 0; i < N * M; i++) x[i] = rng_uniform(); /* deviations near 0.29: far from the 0.1 guard */
  for (long i = 0; i < M * M; i++) W[i] = rng_range(-1, 1);
}

int main(void) {
  static const Kernel k = {.name = "correlation",
                           .title = "correlation of 350 variables over 500 samples, J = sum W . corr",
                           .parallel = 1,
                           .n = N * M,
                           .iterations = (double)M * (M - 1) / 2 * N,
                           .iteration = "multiply-add",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = NULL};
  return kernel_main(&k);
}
