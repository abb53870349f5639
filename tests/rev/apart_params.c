// Functions written without `restrict`, as most C is (ad/apart.c): a reverse-mode request gets the
// gradient of a copy whose pointer parameters are noalias where, for the call's arguments, the bytes
// each parameter, shadow and global reaches lie apart; else the gradient of the function as written.
//   product(A, B, C): C = A B (m x p times p x q), J = sum W . C: called with three separate arrays (the
//     copy: A and B read back, not recorded), then with C over B's last rows, where the stores overwrite
//     what later iterations read (the function as written).
//   factor(A, LU): LU = A, then LU factorised in place (a triangle: the inner loops start at k + 1 and are
//     entered while k + 1 < n), J = sum W . LU: separate, then A and LU the same array.
//   chol(L): a Cholesky factorisation in place, its inner loops guarded by j != 0 (clang's form);
//   offset_rows(x, y, n, stride): y[i] = x[i * stride] ^ 2 + y[i] / 2 for an int stride read at run time,
//     x and y apart, then overlapping with a negative stride;
//   unsigned_sum(x, y, n): an unsigned index n - 1 - i, which may wrap: no check (as written).
//   shared_shadow: product's gradient with one shadow array for A and B (the shadows overlap: as written).
//   escapes(x, y): the pointer goes to a function of the program that is not inlined: no check at all.
//   swapped(u0, work): a 1-D Jacobi stencil over two halves of work swapped each step (pointer phis),
//     work apart from u0, then u0 inside work's second half (as written: u0 is overwritten).
//   walked(x, y): y = y / 2 + x^2 and J = sum y^2, three times, through pointers walked to an end
//     (`p != x + n`, `p < y + n`): apart, then y the same array as x. Its copy records as much as the
//     function (it reads back nothing more), so only its gradients are compared, and that the check is
//     built (PARAD_PLAN).
// Every gradient against central differences (h 1e-6, 1e-6) and forward-mode tangents (1e-10), and the
// tape of one gradient against the build without the choice (PARAD_NO_APART=1, its output): at most half
// of it where the arrays are apart (less, for the stencil, whose values are recorded either way), at least
// 9/10 of it where they are not, so that a check that always fails, or always passes, fails the test.
// RUN: env PARAD_PLAN=1 %parad-cc %cflags %s -o %t2 -lm 2>&1 | not grep "no check of walked:"
// RUN: env PARAD_NO_APART=1 %parad-cc %cflags %s -o %t1 -lm && %t1 > %t1.out
// RUN: %parad-cc %cflags %s -o %t -lm && %t %t1.out
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

size_t parad_tape_peak_bytes(void);

enum { M = 12, P = 10, Q = 14, N = 16 };
static double W[M * Q > N * N ? M * Q : N * N];

__attribute__((noinline)) static double product(const double *A, const double *B, double *C) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < Q; j++) C[i * Q + j] = 0;
  for (int i = 0; i < M; i++)
    for (int k = 0; k < P; k++) {
      double a = A[i * P + k];
      for (int j = 0; j < Q; j++) C[i * Q + j] += a * B[k * Q + j];
    }
  double J = 0;
  for (int i = 0; i < M * Q; i++) J += W[i] * C[i];
  return J;
}

__attribute__((noinline)) static double factor(const double *A, double *LU) {
  for (int i = 0; i < N * N; i++) LU[i] = A[i];
  for (int k = 0; k < N; k++)
    for (int i = k + 1; i < N; i++) {
      LU[i * N + k] /= LU[k * N + k];
      for (int j = k + 1; j < N; j++) LU[i * N + j] -= LU[i * N + k] * LU[k * N + j];
    }
  double J = 0;
  for (int i = 0; i < N * N; i++) J += W[i] * LU[i];
  return J;
}

__attribute__((noinline)) static double chol(const double *A, double *L) {
  for (int i = 0; i < N * N; i++) L[i] = A[i];
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < i; j++) {
      double s = L[i * N + j];
      for (int k = 0; k < j; k++) s -= L[i * N + k] * L[j * N + k];
      L[i * N + j] = s / L[j * N + j];
    }
    double s = L[i * N + i];
    for (int k = 0; k < i; k++) s -= L[i * N + k] * L[i * N + k];
    L[i * N + i] = sqrt(s);
  }
  double J = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) J += W[i * N + j] * L[i * N + j];
  return J;
}

static int stride_at_run_time = 2;

__attribute__((noinline)) static double offset_rows(const double *x, double *y, int n, int stride) {
  double J = 0;
  for (int r = 0; r < 3; r++) {
    for (int i = 0; i < n; i++) y[i] = x[i * stride] * x[i * stride] + y[i] * 0.5;
    for (int i = 0; i < n; i++) J += W[i] * sin(y[i]);
  }
  return J;
}

__attribute__((noinline)) static double unsigned_sum(const double *x, double *y, unsigned n) {
  double J = 0;
  for (unsigned i = 0; i < n; i++) y[i] = x[i] * x[n - 1 - i];
  for (unsigned i = 0; i < n; i++) J += y[i] * x[i];
  return J;
}

/* pointers walked to an end: `p != e` over x, `p < y + n` over y */
__attribute__((noinline)) static double walked(const double *x, double *y) {
  double J = 0;
  for (int r = 0; r < 3; r++) {
    double *q = y;
    for (const double *p = x, *e = x + N; p != e; p++, q++) *q = *q * 0.5 + *p * *p;
    for (const double *p = y; p < y + N; p++) J += *p * *p;
  }
  return J;
}

static double kept;
__attribute__((noinline)) static void keep(double *p) { kept += p[0]; }

__attribute__((noinline)) static double escapes(const double *x, double *y) {
  for (int i = 0; i < N; i++) y[i] = x[i] * x[i];
  keep(y);
  double J = 0;
  for (int i = 0; i < N; i++) J += y[i] * x[N - 1 - i];
  return J;
}

enum { S = 24, STEPS = 5, APART_BUFFER = 4 * N * N + 64 };
#define APART_TAPE_BYTES parad_tape_peak_bytes
#include "apart_cases.h"

__attribute__((noinline)) static double swapped(const double *u0, double *work) {
  double *a = work, *b = work + S;
  for (int i = 0; i < S; i++) a[i] = b[i] = u0[i];
  for (int t = 0; t < STEPS; t++) {
    for (int i = 1; i < S - 1; i++) b[i] = (a[i - 1] + a[i] * a[i] + a[i + 1]) / 3;
    double *c = a;
    a = b, b = c;
  }
  double J = 0;
  for (int i = 0; i < S; i++) J += W[i] * a[i] + u0[i] * u0[S - 1 - i];
  return J;
}

TWO_INPUTS(prod, product, M * P, P * Q)
static void prod_apart(void) { at.a = 0, at.b = M * P, at.c = M * P + P * Q; }
static void prod_over(void) { at.a = 0, at.b = M * P, at.c = M * P + 4 * Q; } /* C from B's row 4 */

/* A and B sharing one shadow array: their adjoints add up in it, against the separate gradient's */
static void prod_shared_grad(const double *x, double *g) {
  static double shadow_sum[M * P > P * Q ? M * P : P * Q];
  memcpy(buf, x, sizeof(double) * (M * P + P * Q));
  memset(dbuf, 0, sizeof dbuf);
  memset(shadow_sum, 0, sizeof shadow_sum);
  __parad_autodiff((void *)product, buf, shadow_sum, buf + M * P, shadow_sum, buf + M * P + P * Q, dbuf);
  prod_grad(x, g);
  for (int i = 0; i < (M * P > P * Q ? M * P : P * Q); i++)
    CHECK_CLOSE(shadow_sum[i], (i < M * P ? g[i] : 0) + (i < P * Q ? g[M * P + i] : 0), 1e-12);
}

TWO_ARRAYS(fac, factor, N * N)
TWO_ARRAYS(cho, chol, N * N)
TWO_ARRAYS(swp, swapped, S)

/* walked: y accumulates, so it starts at zero where it is not x */
static double walked_fresh(const double *x, double *y) {
  if (y != x) memset(y, 0, sizeof(double) * N);
  return walked(x, y);
}
static void walked_fresh_grad(const double *x, double *dx, double *y, double *dy) {
  if (y != x) memset(y, 0, sizeof(double) * N);
  __parad_autodiff((void *)walked, x, dx, y, dy);
}
static double walked_fresh_tangent(const double *x, const double *dx, double *y, double *dy) {
  if (y != x) memset(y, 0, sizeof(double) * N);
  return __parad_fwddiff((void *)walked, x, dx, y, dy);
}
static double wlk_f(const double *x) {
  memcpy(buf + at.a, x, sizeof(double) * N);
  return walked_fresh(buf + at.a, buf + at.c);
}
static void wlk_grad(const double *x, double *g) {
  memcpy(buf + at.a, x, sizeof(double) * N);
  memset(dbuf, 0, sizeof dbuf);
  walked_fresh_grad(buf + at.a, dbuf + at.a, buf + at.c, dbuf + at.c);
  memcpy(g, dbuf + at.a, sizeof(double) * N);
}
static double wlk_tangent(const double *x, const double *v) {
  memcpy(buf + at.a, x, sizeof(double) * N);
  memset(dbuf, 0, sizeof dbuf);
  memcpy(dbuf + at.a, v, sizeof(double) * N);
  return walked_fresh_tangent(buf + at.a, dbuf + at.a, buf + at.c, dbuf + at.c);
}
static void u0_in_work(void) { at.a = S + 4, at.c = 0; } /* u0 inside work's second half */

STRIDED(rows, offset_rows, N)
static void rows_apart(void) { at.a = 0, at.b = 1, at.c = 3 * N, at.stride = stride_at_run_time; }
static void rows_over(void) { at.a = 2 * N - 1, at.b = 0, at.c = N / 2, at.stride = -1; } /* y inside x, read backwards */

static double usum(const double *x) { return unsigned_sum(x, buf, N); }
static void usum_grad(const double *x, double *g) {
  memset(dbuf, 0, sizeof dbuf);
  __parad_autodiff((void *)unsigned_sum, x, g, buf, dbuf, N);
}
static double usum_tangent(const double *x, const double *v) {
  memset(dbuf, 0, sizeof dbuf);
  return __parad_fwddiff((void *)unsigned_sum, x, v, buf, dbuf, N);
}

static double esc(const double *x) { return escapes(x, buf); }
static void esc_grad(const double *x, double *g) {
  memset(dbuf, 0, sizeof dbuf);
  __parad_autodiff((void *)escapes, x, g, buf, dbuf);
}
static double esc_tangent(const double *x, const double *v) {
  memset(dbuf, 0, sizeof dbuf);
  return __parad_fwddiff((void *)escapes, x, v, buf, dbuf);
}

static void nowhere(void) {}

int main(int argc, char **argv) {
  if (read_tapes_as_written(argc, argv)) return 1;
  for (int i = 0; i < (int)(sizeof W / sizeof *W); i++) W[i] = sin(0.37 * i + 0.2);
  double x[4 * N * N];
  for (int i = 0; i < 4 * N * N; i++) x[i] = 0.5 * cos(0.71 * i);
  double spd[N * N]; /* diagonally dominant, symmetric: factorisations without pivots */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) spd[i * N + j] = i == j ? N + 1.0 : 0.3 * cos(i + j);
  double mp = (double)M * P * Q, lu = (double)N * N * N / 3, ch = (double)N * N * N / 6;
  Case cases[] = {
      {"product, apart", prod_apart, M * P + P * Q, prod_f, prod_grad, prod_tangent, 1, mp},
      {"product, C over B", prod_over, M * P + P * Q, prod_f, prod_grad, prod_tangent, 0, mp},
      {"product, one shadow for A and B", prod_apart, M * P + P * Q, prod_f, prod_shared_grad, NULL, -1, mp},
      {"factor, apart", apart_after, N * N, fac_f, fac_grad, fac_tangent, 1, lu},
      {"factor, in place", in_place, N * N, fac_f, fac_grad, fac_tangent, 0, lu},
      {"chol, apart", apart_after, N * N, cho_f, cho_grad, cho_tangent, 1, ch},
      {"offset_rows, apart", rows_apart, 2 * N, rows_f, rows_grad, rows_tangent, -1, 3 * N},
      {"offset_rows, overlapping", rows_over, 2 * N, rows_f, rows_grad, rows_tangent, -1, 3 * N},
      {"unsigned_sum", nowhere, N, usum, usum_grad, usum_tangent, 0, N},
      {"escapes", nowhere, N, esc, esc_grad, esc_tangent, 0, N},
      {"swapped, apart", apart_after, S, swp_f, swp_grad, swp_tangent, 2, S * STEPS},
      {"swapped, u0 inside work", u0_in_work, S, swp_f, swp_grad, swp_tangent, 0, S * STEPS},
      {"walked, apart", apart_after, N, wlk_f, wlk_grad, wlk_tangent, -1, 3 * N},
      {"walked, y the same as x", in_place, N, wlk_f, wlk_grad, wlk_tangent, -1, 3 * N},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) check_case(&cases[k], k == 3 || k == 4 || k == 5 ? spd : x);
  return check_done();
}
