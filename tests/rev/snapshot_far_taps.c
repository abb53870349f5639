// Two reads of one array in an innermost loop, far apart: a Cholesky factor computed in a block the
// function allocates itself, `s -= L[i][k] * L[j][k]`. Taken for a stencil's taps, the two reads were
// copied per run of the k loop as one range, everything between rows j and i: a tape of n^4/6 doubles
// (128 MB at n = 100, the program killed for memory at n = 400), the gradient 400-1,500 primals. Reads are
// copied per run only where they lie a constant distance apart (v[j - 1], v[j], v[j + 1]); these are
// recorded one by one. The gradient of log det A against the analytic one (A^-1 symmetric: d/dA_ij of
// sum log L_ii = (A^-1)_ij for i = j and, the factor reading the lower triangle only, 2 (A^-1)_ij below it;
// 1e-9) and central differences (h 1e-6, 1e-6); the tape at n = 60 under 2 MB (it was 17 MB; recorded,
// 0.6 MB), at -O2 and -O0. A 1-D stencil whose taps do lie near each other still copies (its tape under
// two thirds of the records').
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
size_t parad_tape_peak_bytes(void);
void parad_tape_reset_peak(void);

static double log_det(const double *A, int n) {
  double *L = malloc(sizeof(double) * n * n);
  for (int i = 0; i < n * n; i++) L[i] = A[i];
  for (int i = 0; i < n; i++) {
    double *li = L + (size_t)i * n;
    for (int j = 0; j < i; j++) {
      const double *lj = L + (size_t)j * n;
      double s = li[j];
      for (int k = 0; k < j; k++) s -= li[k] * lj[k];
      li[j] = s / lj[j];
    }
    double s = li[i];
    for (int k = 0; k < i; k++) s -= li[k] * li[k];
    li[i] = sqrt(s);
  }
  double ld = 0;
  for (int i = 0; i < n; i++) ld += 2 * log(L[i * n + i]);
  free(L);
  return ld;
}

static int size;
static double log_det_at(void *c, double v) {
  double *A = c, keep = A[size + 1];
  A[size + 1] = v; /* A[1][1] */
  double r = log_det(A, size);
  A[size + 1] = keep;
  return r;
}

/* a stencil over an array swapped with another each step, both in one block: its taps copied */
static double smooth(const double *x, int n, int steps) {
  double *u = malloc(2 * sizeof(double) * n), *v = u + n;
  memcpy(u, x, sizeof(double) * n);
  for (int t = 0; t < steps; t++) {
    v[0] = u[0], v[n - 1] = u[n - 1];
    for (int j = 1; j < n - 1; j++) v[j] = 0.25 * u[j - 1] + 0.5 * u[j] * u[j] + 0.25 * u[j + 1];
    double *w = u;
    u = v, v = w;
  }
  double s = 0;
  for (int j = 0; j < n; j++) s += u[j];
  free(u < v ? u : v);
  return s;
}

int main(void) {
  enum { N = 60 };
  double *A = malloc(sizeof(double) * N * N), *G = calloc(N * N, sizeof(double));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) A[i * N + j] = exp(-0.1 * (i - j) * (i - j)) + (i == j);
  parad_tape_reset_peak();
  __parad_autodiff((void *)log_det, A, G, parad_const, N);
  size_t tape = parad_tape_peak_bytes();
  printf("tape %zu bytes\n", tape);
  CHECK_CLOSE((double)(tape < 2000000), 1.0, 0.0);
  size = N;
  CHECK_CLOSE(G[N + 1], fd_central(log_det_at, A, A[N + 1], 1e-6), 1e-6);
  /* the gradient holds A^-1: G_ii = (A^-1)_ii, G_ij = 2 (A^-1)_ij below the diagonal, 0 above it; A times
     the first column of A^-1 is e_0 */
  for (int i = 0; i < N; i++) {
    double r = 0;
    for (int j = 0; j < N; j++) {
      double inv = j == 0 ? G[0] : G[j * N] / 2; /* (A^-1)_j0 from the lower triangle */
      r += A[i * N + j] * inv;
    }
    CHECK_CLOSE(r, i == 0 ? 1.0 : 0.0, 1e-9);
  }
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j < N; j++) CHECK_CLOSE(G[i * N + j], 0.0, 0.0);
  enum { M = 2000, T = 20 };
  double *x = malloc(sizeof(double) * M), *dx = calloc(M, sizeof(double));
  for (int j = 0; j < M; j++) x[j] = 0.3 + 0.2 * sin(0.01 * j);
  parad_tape_reset_peak();
  __parad_autodiff((void *)smooth, x, dx, parad_const, M, parad_const, T);
  size_t stencil = parad_tape_peak_bytes();
  printf("stencil tape %zu bytes (records: %d)\n", stencil, 3 * 8 * M * T);
  CHECK_CLOSE((double)(stencil < (size_t)2 * M * T * 8), 1.0, 0.0);
  size = M;
  free(dx), free(x), free(G), free(A);
  return check_done();
}
