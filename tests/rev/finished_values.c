// In-place factorisations read values that later steps never write again: LU's pivot row and
// multipliers, the finished entries of a Cholesky factor, the solved part of a triangular solve. The
// reverse sweep reads them from memory instead of recording them (analysis/dependence.c), so the tape
// holds less than one double per multiply-add, not one or two. Beside them, shapes one
// step away where a later store does overwrite what was read (the same iteration's store after the load,
// a step that updates its own pivot row, the next iteration's store one element further on): their
// gradients must stay right. LU once more with its row length a run-time value (the subscript i * n + j). Every gradient against central finite differences (h = 1e-5, tolerance 1e-6), every
// component, at -O2 and -O0; the tape bound at -O2.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0 0
#include <stddef.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
enum { N = 16 };

/* LU without pivoting, in place, flattened rows: J = sum W . LU */
__attribute__((noinline)) static double lu(const double *restrict A, double *restrict LU, const double *restrict W) {
  for (int i = 0; i < N * N; i++) LU[i] = A[i];
  for (int k = 0; k < N; k++) {
    const double *u = LU + k * N;
    for (int i = k + 1; i < N; i++) {
      double *a = LU + i * N;
      a[k] /= u[k];
      for (int j = k + 1; j < N; j++) a[j] -= a[k] * u[j];
    }
  }
  double J = 0;
  for (int i = 0; i < N * N; i++) J += W[i] * LU[i];
  return J;
}

/* Cholesky row by row on a two-dimensional array type: L[i][j] for j <= i */
__attribute__((noinline)) static double cholesky(const double *restrict A, double *restrict work, const double *restrict W) {
  double(*restrict L)[N] = (double(*)[N])work;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) L[i][j] = A[i * N + j];
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < i; j++) {
      double s = L[i][j];
      for (int k = 0; k < j; k++) s -= L[i][k] * L[j][k];
      L[i][j] = s / L[j][j];
    }
    double s = L[i][i];
    for (int k = 0; k < i; k++) s -= L[i][k] * L[i][k];
    L[i][i] = sqrt(s);
  }
  double J = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) J += W[i * N + j] * L[i][j];
  return J;
}

/* forward substitution into x (work), then a nonlinear read of the solution */
__attribute__((noinline)) static double trisolv(const double *restrict A, double *restrict x, const double *restrict W) {
  for (int i = 0; i < N; i++) {
    double s = A[i * N + N - 1 - i % 3];
    for (int j = 0; j < i; j++) s -= 0.1 * A[i * N + j] * x[j];
    x[i] = s / (2 + A[i * N + i] * A[i * N + i]);
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += W[i] * x[i] * x[i];
  return J;
}

/* the load x[i] (j == i) is overwritten by the same iteration's store after it */
__attribute__((noinline)) static double prefix(const double *restrict A, double *restrict x, const double *restrict W) {
  for (int i = 0; i < N; i++) x[i] = A[i];
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j <= i; j++) s += 0.3 * A[i * N + j] * x[j] * x[j];
    x[i] = tanh(s);
  }
  double J = 0;
  for (int i = 0; i < N; i++) J += W[i] * x[i];
  return J;
}

/* each step k updates its own pivot row too (i from k): u[j] is read, then overwritten in the same j
 * iteration; a[k] is read at i == k, then overwritten */
__attribute__((noinline)) static double self_update(const double *restrict A, double *restrict M, const double *restrict W) {
  for (int i = 0; i < N * N; i++) M[i] = A[i];
  for (int k = 0; k < N; k++) {
    double *u = M + k * N;
    for (int i = k; i < N; i++) {
      double *a = M + i * N;
      for (int j = k + 1; j < N; j++) a[j] -= 0.05 * a[k] * u[j];
      a[k] *= 0.9 + 0.01 * u[k];
    }
  }
  double J = 0;
  for (int i = 0; i < N * N; i++) J += W[i] * M[i];
  return J;
}

/* iteration i reads x[i] and x[i + 1] and writes x[i + 1]: the next iteration's reads of x[i + 1]
 * come after that store, and the read of x[i + 1] is overwritten right after it */
__attribute__((noinline)) static double shifted(const double *restrict A, double *restrict x, const double *restrict W) {
  for (int i = 0; i < N; i++) x[i] = A[i];
  for (int r = 0; r < 3; r++)
    for (int i = 0; i < N - 1; i++) x[i + 1] = sin(x[i]) * x[i + 1] + A[N + i];
  double J = 0;
  for (int i = 0; i < N; i++) J += W[i] * x[i];
  return J;
}

/* LU again, the row length a run-time value: the address's stride n is a symbol */
__attribute__((noinline)) static double lu_n(const double *restrict A, double *restrict LU, const double *restrict W,
                                             int n) {
  for (int i = 0; i < n * n; i++) LU[i] = A[i];
  for (int k = 0; k < n; k++)
    for (int i = k + 1; i < n; i++) {
      LU[i * n + k] /= LU[k * n + k];
      for (int j = k + 1; j < n; j++) LU[i * n + j] -= LU[i * n + k] * LU[k * n + j];
    }
  double J = 0;
  for (int i = 0; i < n * n; i++) J += W[i] * LU[i];
  return J;
}

typedef double (*Kernel)(const double *restrict, double *restrict, const double *restrict);

static double A[N * N], W[N * N], work[N * N], dA[N * N], dwork[N * N];

static double lu_fixed_n(const double *restrict a, double *restrict w, const double *restrict wt) { return lu_n(a, w, wt, N); }

static double at(Kernel f, int i, double v) {
  double saved = A[i], r;
  A[i] = v;
  r = f(A, work, W);
  A[i] = saved;
  return r;
}

/* the gradient against finite differences; returns the tape bytes it recorded */
static size_t check(Kernel f) {
  memset(dA, 0, sizeof dA);
  memset(dwork, 0, sizeof dwork);
  size_t before = parad_tape_recorded_bytes();
  if (f == lu) __parad_autodiff((void *)lu, A, dA, work, dwork, parad_const, W);
  if (f == cholesky) __parad_autodiff((void *)cholesky, A, dA, work, dwork, parad_const, W);
  if (f == trisolv) __parad_autodiff((void *)trisolv, A, dA, work, dwork, parad_const, W);
  if (f == prefix) __parad_autodiff((void *)prefix, A, dA, work, dwork, parad_const, W);
  if (f == self_update) __parad_autodiff((void *)self_update, A, dA, work, dwork, parad_const, W);
  if (f == shifted) __parad_autodiff((void *)shifted, A, dA, work, dwork, parad_const, W);
  if (f == lu_fixed_n) __parad_autodiff((void *)lu_n, A, dA, work, dwork, parad_const, W, N);
  size_t bytes = parad_tape_recorded_bytes() - before;
  const double h = 1e-5;
  for (int i = 0; i < N * N; i++) CHECK_CLOSE(dA[i], (at(f, i, A[i] + h) - at(f, i, A[i] - h)) / (2 * h), 1e-6);
  return bytes;
}

int main(int argc, char **argv) {
  int check_tape = argc < 2; /* at -O0 nothing is promised about the tape */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i * N + j] = 0.3 * sin(1.3 * i + 0.7 * j + 0.1) + (i == j ? 2.0 + 0.1 * i : 0);
      if (j < i) A[j * N + i] = A[i * N + j]; /* symmetric, diagonally dominant: Cholesky and LU need no pivot */
      W[i * N + j] = cos(0.23 * i - 0.41 * j);
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < i; j++) A[i * N + j] = A[j * N + i];
  size_t finished[4] = {check(lu), check(cholesky), check(trisolv), check(lu_fixed_n)};
  check(prefix);
  check(self_update);
  check(shifted);
  /* less than a double per multiply-add (recorded, the reads take two): sum_k (N-k-1)^2 for LU, about
   * N^3 / 6 for Cholesky, N (N - 1) / 2 for the triangular solve, LU's again with a run-time n */
  double multiply_adds[4] = {(N - 1.0) * N * (2 * N - 1) / 6, N * N * N / 6.0, N * (N - 1) / 2.0,
                            (N - 1.0) * N * (2 * N - 1) / 6};
  if (check_tape)
    for (int k = 0; k < 4; k++) CHECK_CLOSE((double)(finished[k] < sizeof(double) * multiply_adds[k]), 1, 0);
  return check_done();
}
