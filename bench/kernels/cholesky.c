/* cholesky: the Cholesky factorisation A = L L^T of an n x n symmetric positive definite matrix, row by row
 * in place (its lower triangle becomes L; the upper triangle is not read), serial;
 * J(A) = sum_{j <= i} W_ij L_ij. Hand-written adjoint: each entry is computed once from entries of L
 * computed before it (l_ij = (a_ij - sum_{k<j} l_ik l_jk) / l_jj, l_ii = sqrt(a_ii - sum_{k<i} l_ik^2)), so
 * the reverse sweep, entries in the opposite order, takes them from the finished factor: no tape. */
#include "kernel.h"

enum { N = 550 };
static double *W, *L, *dL;

static double cholesky(const double *restrict A, double *restrict L, const double *restrict W) {
  for (int i = 0; i < N * N; i++) L[i] = A[i];
  for (int i = 0; i < N; i++) {
    double *li = L + (size_t)i * N;
    for (int j = 0; j < i; j++) {
      const double *lj = L + (size_t)j * N;
      double s = li[j];
      for (int k = 0; k < j; k++) s -= li[k] * lj[k];
      li[j] = s / lj[j];
    }
    double s = li[i];
    for (int k = 0; k < i; k++) s -= li[k] * li[k];
    li[i] = sqrt(s);
  }
  double J = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) J += W[(size_t)i * N + j] * L[(size_t)i * N + j];
  return J;
}

static double primal(const double *x) { return cholesky(x, L, W); }

static void gradient(const double *x, double *g) {
  kernel_zero(dL, sizeof(double) * N * N);
  __parad_autodiff((void *)cholesky, x, g, L, dL, parad_const, W);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)cholesky, x, v, L, dL, parad_const, W);
}

/* g holds the adjoint of the working matrix: the seed W on the lower triangle, at the end dJ/dA. */
static double hand(const double *x, double *g) {
  double J = primal(x);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) g[(size_t)i * N + j] = j <= i ? W[(size_t)i * N + j] : 0;
  for (int i = N - 1; i >= 0; i--) {
    const double *li = L + (size_t)i * N;
    double *gi = g + (size_t)i * N;
    double gs = gi[i] / (2 * li[i]); /* l_ii = sqrt(s) */
    gi[i] = gs;
    for (int k = 0; k < i; k++) gi[k] -= 2 * gs * li[k];
    for (int j = i - 1; j >= 0; j--) {
      const double *lj = L + (size_t)j * N;
      double *gj = g + (size_t)j * N;
      double gq = gi[j], gs = gq / lj[j]; /* l_ij = s / l_jj */
      gj[j] -= gs * li[j];
      gi[j] = gs;
      for (int k = 0; k < j; k++) gi[k] -= gs * lj[k], gj[k] -= gs * li[k];
    }
  }
  return J;
}

static void init(double *x) {
  W = malloc(sizeof(double) * N * N), L = malloc(sizeof(double) * N * N), dL = malloc(sizeof(double) * N * N);
  rng_seed(7);
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) x[(size_t)i * N + j] = x[(size_t)j * N + i] = rng_range(-1, 1);
  for (int i = 0; i < N; i++) x[(size_t)i * N + i] += N; /* positive definite (Gershgorin) */
  for (int i = 0; i < N * N; i++) W[i] = rng_range(-1, 1);
}

int main(void) {
  static const Kernel k = {.name = "cholesky",
                           .title = "Cholesky factorisation, 550 x 550, J = sum W . L",
                           .parallel = 0,
                           .n = N * N,
                           .iterations = (double)N * N * N / 6,
                           .iteration = "multiply-add",
                           .init = init,
                           .primal = primal,
                           .gradient = gradient,
                           .tangent = tangent,
                           .hand = hand};
  return kernel_main(&k);
}
