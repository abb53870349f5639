/* tiled_cholesky: the Cholesky factorisation A = L L^T of a 512 x 512 symmetric positive definite matrix in
 * 64 x 64 tiles, each tile operation an OpenMP task ordered by depend clauses on the tiles (potrf on the
 * diagonal tile, trsm below it, syrk and gemm on the trailing matrix), created by one thread of the
 * team; J(A) = sum_{j <= i} W_ij L_ij. No hand-written adjoint: checked against finite differences. The
 * reverse sweep runs each task's adjoint at the adjoint of its creation, on the creating thread. */
#include "kernel.h"

enum { B = 64, T = 8, N = B * T };
typedef double Tile[B][B];
static Tile *tiles, *dtiles; /* T x T tiles, row-major by tile */
static double *W;

static void potrf(double (*a)[B]) {
  for (int j = 0; j < B; j++) {
    double s = a[j][j];
    for (int k = 0; k < j; k++) s -= a[j][k] * a[j][k];
    a[j][j] = sqrt(s);
    for (int i = j + 1; i < B; i++) {
      double t = a[i][j];
      for (int k = 0; k < j; k++) t -= a[i][k] * a[j][k];
      a[i][j] = t / a[j][j];
    }
  }
}

/* b = b L^-T, L the lower triangle of l */
static void trsm(const double (*l)[B], double (*b)[B]) {
  for (int i = 0; i < B; i++)
    for (int j = 0; j < B; j++) {
      double t = b[i][j];
      for (int k = 0; k < j; k++) t -= b[i][k] * l[j][k];
      b[i][j] = t / l[j][j];
    }
}

/* c -= a b^T (the lower triangle only when c is a diagonal tile) */
static void update(const double (*a)[B], const double (*b)[B], double (*c)[B], int diagonal) {
  for (int i = 0; i < B; i++)
    for (int j = 0; j < (diagonal ? i + 1 : B); j++) {
      double t = c[i][j];
      for (int k = 0; k < B; k++) t -= a[i][k] * b[j][k];
      c[i][j] = t;
    }
}

static double factor(const double *restrict A, Tile *restrict a, const double *restrict W) {
#pragma omp parallel for schedule(static)
  for (int t = 0; t < T * T; t++)
    for (int i = 0; i < B; i++)
      for (int j = 0; j < B; j++) a[t][i][j] = A[(size_t)((t / T) * B + i) * N + (t % T) * B + j];
#pragma omp parallel
#pragma omp single
  for (int k = 0; k < T; k++) {
#pragma omp task depend(inout : a[k * T + k])
    potrf(a[k * T + k]);
    for (int i = k + 1; i < T; i++) {
#pragma omp task depend(in : a[k * T + k]) depend(inout : a[i * T + k])
      trsm(a[k * T + k], a[i * T + k]);
    }
    for (int i = k + 1; i < T; i++)
      for (int j = k + 1; j <= i; j++) {
#pragma omp task depend(in : a[i * T + k], a[j * T + k]) depend(inout : a[i * T + j])
        update(a[i * T + k], a[j * T + k], a[i * T + j], i == j);
      }
  }
  double J = 0;
  for (int ti = 0; ti < T; ti++)
    for (int tj = 0; tj <= ti; tj++)
      for (int i = 0; i < B; i++)
        for (int j = 0; j < (ti == tj ? i + 1 : B); j++) J += W[(size_t)(ti * B + i) * N + tj * B + j] * a[ti * T + tj][i][j];
  return J;
}

static double primal(const double *x) { return factor(x, tiles, W); }

static void gradient(const double *x, double *g) {
  kernel_zero(dtiles, sizeof(Tile) * T * T);
  __parad_autodiff((void *)factor, x, g, tiles, dtiles, parad_const, W);
}

static double tangent(const double *x, const double *v) {
  return __parad_fwddiff((void *)factor, x, v, tiles, dtiles, parad_const, W);
}

/* A = M M^T / N + 2 I, M's entries in [-1, 1): well conditioned */
static void init(double *x) {
  tiles = aligned_alloc(64, sizeof(Tile) * T * T), dtiles = aligned_alloc(64, sizeof(Tile) * T * T);
  W = malloc(sizeof(double) * N * N);
  double *M = malloc(sizeof(double) * N * N);
  rng_seed(21);
  for (int i = 0; i < N * N; i++) M[i] = rng_range(-1, 1), W[i] = rng_range(-1, 1);
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      double s = 0;
      for (int k = 0; k < N; k++) s += M[(size_t)i * N + k] * M[(size_t)j * N + k];
      x[(size_t)i * N + j] = x[(size_t)j * N + i] = s / N + (i == j ? 2 : 0);
    }
  free(M);
}

int main(void) {
  Kernel k = {.name = "tiled_cholesky",
              .title = "tiled Cholesky, 512 x 512 in 64 x 64 tiles, one OpenMP task per tile operation (depend)",
              .parallel = 1,
              .n = N * N,
              .iterations = (double)N * N * N / 6,
              .iteration = "multiply-add of the factorisation",
              .init = init,
              .primal = primal,
              .gradient = gradient,
              .tangent = tangent,
              .hand = NULL};
  return kernel_main(&k);
}
