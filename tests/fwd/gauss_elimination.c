// Gaussian elimination with partial pivoting solving A x = b in place (row swaps chosen by comparing
// active magnitudes, data-dependent branches). The tangent of x along db satisfies A dx = db, checked
// by the residual of dx (tolerance 1e-12); the tangent along dA satisfies A dx = -dA x, checked the same
// way; and a weighted sum of x is checked against central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

enum { N = 5 };

/* Solves a x = b for an n x n row-major a (overwritten); the solution replaces b. Returns c . x */
__attribute__((noinline)) static double solve(double *a, double *b, int n) {
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(a[i * n + k]) > fabs(a[p * n + k])) p = i;
    if (p != k) {
      for (int j = 0; j < n; j++) {
        double t = a[k * n + j];
        a[k * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
      double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
    for (int i = k + 1; i < n; i++) {
      double f = a[i * n + k] / a[k * n + k];
      for (int j = k; j < n; j++) a[i * n + j] -= f * a[k * n + j];
      b[i] -= f * b[k];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < n; j++) s -= a[i * n + j] * b[j];
    b[i] = s / a[i * n + i];
  }
  double c = 0;
  for (int i = 0; i < n; i++) c += (i + 1) * b[i];
  return c;
}

static double A0[N * N], B0[N];

static void setup(void) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) A0[i * N + j] = sin(1.3 * i + 0.7 * j * j) + (i == (j + 2) % N ? 0.5 : 0);
    B0[i] = cos(0.9 * i) + 0.1 * i;
  }
}

static double along_b(void *ctx, double t) {
  double a[N * N], b[N], *db = ctx;
  memcpy(a, A0, sizeof a);
  for (int i = 0; i < N; i++) b[i] = B0[i] + t * db[i];
  return solve(a, b, N);
}

int main(void) {
  setup();
  double a[N * N], da[N * N] = {0}, b[N], db[N];
  /* direction in b only */
  memcpy(a, A0, sizeof a);
  memcpy(b, B0, sizeof b);
  for (int i = 0; i < N; i++) db[i] = 1.0 / (i + 1) - 0.3;
  double dbcopy[N];
  memcpy(dbcopy, db, sizeof db);
  double d = __parad_fwddiff((void *)solve, a, da, b, db, parad_const, N);
  CHECK_CLOSE(d, fd_central(along_b, dbcopy, 0, 1e-6), 1e-7);
  for (int i = 0; i < N; i++) { /* A0 dx = db */
    double r = 0;
    for (int j = 0; j < N; j++) r += A0[i * N + j] * db[j];
    CHECK_CLOSE(r, dbcopy[i], 1e-12);
  }
  double x[N];
  memcpy(x, b, sizeof x);
  /* direction in A only: A0 dx = -dA x */
  double dA[N * N];
  for (int i = 0; i < N * N; i++) dA[i] = cos(0.37 * i);
  memcpy(a, A0, sizeof a);
  memcpy(da, dA, sizeof da);
  memcpy(b, B0, sizeof b);
  memset(db, 0, sizeof db);
  __parad_fwddiff((void *)solve, a, da, b, db, parad_const, N);
  for (int i = 0; i < N; i++) {
    double r = 0, rhs = 0;
    for (int j = 0; j < N; j++) r += A0[i * N + j] * db[j], rhs -= dA[i * N + j] * x[j];
    CHECK_CLOSE(r, rhs, 1e-12);
  }
  return check_done();
}
