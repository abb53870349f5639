// Gaussian elimination with partial pivoting solving A x = b in place, in reverse mode: row swaps chosen
// by comparing active magnitudes, the matrix and right-hand side overwritten many times. For c = w . x
// (w_i = i + 1) the adjoint equations say: the gradient with respect to b is l with A^T l = w, and the
// gradient with respect to A is -l x^T. Checked by the residual A^T l - w (tolerance 1e-12) and
// elementwise (1e-12), against central finite differences for a few entries (h = 1e-6, tolerance 1e-7),
// and against the forward tangent along every unit direction of A and b (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 5 };

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

static double along(void *ctx, double t) { /* unit direction k: k < N*N in A, else in b */
  int k = *(int *)ctx;
  double a[N * N], b[N];
  memcpy(a, A0, sizeof a);
  memcpy(b, B0, sizeof b);
  if (k < N * N) a[k] += t;
  else b[k - N * N] += t;
  return solve(a, b, N);
}

int main(void) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) A0[i * N + j] = sin(1.3 * i + 0.7 * j * j) + (i == (j + 2) % N ? 0.5 : 0);
    B0[i] = cos(0.9 * i) + 0.1 * i;
  }
  double a[N * N], b[N], da[N * N] = {0}, db[N] = {0};
  memcpy(a, A0, sizeof a);
  memcpy(b, B0, sizeof b);
  __parad_autodiff((void *)solve, a, da, b, db, parad_const, N);
  double x[N];
  memcpy(x, b, sizeof x); /* the primal solution */
  for (int i = 0; i < N; i++) {
    double r = 0;
    for (int j = 0; j < N; j++) r += A0[j * N + i] * db[j];
    CHECK_CLOSE(r, i + 1.0, 1e-12);
    for (int j = 0; j < N; j++) CHECK_CLOSE(da[i * N + j], -db[i] * x[j], 1e-12);
  }
  for (int k = 0; k < N * N + N; k++) {
    double got = k < N * N ? da[k] : db[k - N * N];
    if (k % 4 == 0) CHECK_CLOSE(got, fd_central(along, &k, 0, 1e-6), 1e-7);
    double a2[N * N], b2[N], ea[N * N] = {0}, eb[N] = {0};
    memcpy(a2, A0, sizeof a2);
    memcpy(b2, B0, sizeof b2);
    if (k < N * N) ea[k] = 1;
    else eb[k - N * N] = 1;
    CHECK_CLOSE(got, __parad_fwddiff((void *)solve, a2, ea, b2, eb, parad_const, N), 1e-12);
  }
  return check_done();
}
