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
// Every gradient against central differences (h 1e-6, 1e-6) and forward-mode tangents (1e-10), and the
// tape of one gradient against the build without the choice (PARAD_NO_APART=1, its output): at most half
// of it where the arrays are apart (less, for the stencil, whose values are recorded either way), at least
// 9/10 of it where they are not, so that a check that always fails, or always passes, fails the test.
// RUN: env PARAD_NO_APART=1 %parad-cc %cflags %s -o %t1 -lm && %t1 > %t1.out
// RUN: %parad-cc %cflags %s -o %t -lm && %t %t1.out
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_peak_bytes(void);
void parad_tape_reset_peak(void);

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

static double kept;
__attribute__((noinline)) static void keep(double *p) { kept += p[0]; }

__attribute__((noinline)) static double escapes(const double *x, double *y) {
  for (int i = 0; i < N; i++) y[i] = x[i] * x[i];
  keep(y);
  double J = 0;
  for (int i = 0; i < N; i++) J += y[i] * x[N - 1 - i];
  return J;
}

enum { S = 24, STEPS = 5 };
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

/* The objective as a function of the inputs alone, for the checks: each case says where its arrays are. */
typedef struct {
  const char *name;
  int n;                              /* inputs */
  double (*f)(const double *);        /* J(inputs), arrays placed as the case says */
  void (*grad)(const double *, double *);
  double (*tangent)(const double *, const double *);
  int apart;                          /* the copy's gradient expected: 1 (half the tape), 2 (less); 0: as
                                         written; -1: either */
  double work;                        /* multiply-adds of one call, for the tape's bound */
} Case;

static double buf[4 * N * N + 64], dbuf[4 * N * N + 64];

/* product with separate arrays: A at buf, B after it, C after B */
static double prod_apart(const double *x) {
  memcpy(buf, x, sizeof(double) * (M * P + P * Q));
  return product(buf, buf + M * P, buf + M * P + P * Q);
}
static void prod_apart_grad(const double *x, double *g) {
  memcpy(buf, x, sizeof(double) * (M * P + P * Q));
  memset(dbuf, 0, sizeof dbuf);
  __parad_autodiff((void *)product, buf, dbuf, buf + M * P, dbuf + M * P, buf + M * P + P * Q, dbuf + M * P + P * Q);
  memcpy(g, dbuf, sizeof(double) * (M * P + P * Q));
}
static double prod_apart_tangent(const double *x, const double *v) {
  memcpy(buf, x, sizeof(double) * (M * P + P * Q));
  memset(dbuf, 0, sizeof dbuf);
  memcpy(dbuf, v, sizeof(double) * (M * P + P * Q));
  return __parad_fwddiff((void *)product, buf, dbuf, buf + M * P, dbuf + M * P, buf + M * P + P * Q, dbuf + M * P + P * Q);
}

/* product with C starting at B's row 4: the stores overwrite B's rows 4.. as rows of C fill */
enum { OVER = 4 * Q };
static double prod_over(const double *x) {
  memcpy(buf, x, sizeof(double) * (M * P + P * Q));
  return product(buf, buf + M * P, buf + M * P + OVER);
}
static void prod_over_grad(const double *x, double *g) {
  memcpy(buf, x, sizeof(double) * (M * P + P * Q));
  memset(dbuf, 0, sizeof dbuf);
  __parad_autodiff((void *)product, buf, dbuf, buf + M * P, dbuf + M * P, buf + M * P + OVER, dbuf + M * P + OVER);
  memcpy(g, dbuf, sizeof(double) * (M * P + P * Q));
}
static double prod_over_tangent(const double *x, const double *v) {
  memcpy(buf, x, sizeof(double) * (M * P + P * Q));
  memset(dbuf, 0, sizeof dbuf);
  memcpy(dbuf, v, sizeof(double) * (M * P + P * Q));
  return __parad_fwddiff((void *)product, buf, dbuf, buf + M * P, dbuf + M * P, buf + M * P + OVER, dbuf + M * P + OVER);
}

/* A and B sharing one shadow array: their adjoints add up in it */
static double shadow_sum[M * P > P * Q ? M * P : P * Q];
static double prod_shared(const double *x) {
  memcpy(buf, x, sizeof(double) * (M * P + P * Q));
  return product(buf, buf + M * P, buf + M * P + P * Q);
}
static void prod_shared_grad(const double *x, double *g) {
  memcpy(buf, x, sizeof(double) * (M * P + P * Q));
  memset(dbuf, 0, sizeof dbuf);
  memset(shadow_sum, 0, sizeof shadow_sum);
  __parad_autodiff((void *)product, buf, shadow_sum, buf + M * P, shadow_sum, buf + M * P + P * Q, dbuf);
  /* the sum of the two adjoints, against the separate gradient's */
  double sep[M * P + P * Q];
  prod_apart_grad(x, sep);
  for (int i = 0; i < (M * P > P * Q ? M * P : P * Q); i++) {
    double want = (i < M * P ? sep[i] : 0) + (i < P * Q ? sep[M * P + i] : 0);
    CHECK_CLOSE(shadow_sum[i], want, 1e-12);
  }
  prod_apart_grad(x, g);
}

static double factor_apart(const double *x) { return factor(x, buf); }
static void factor_apart_grad(const double *x, double *g) {
  memset(dbuf, 0, sizeof dbuf);
  __parad_autodiff((void *)factor, x, g, buf, dbuf);
}
static double factor_apart_tangent(const double *x, const double *v) {
  memset(dbuf, 0, sizeof dbuf);
  return __parad_fwddiff((void *)factor, x, v, buf, dbuf);
}
/* in place: A and LU the same array (a copy of x) */
static double factor_same(const double *x) {
  memcpy(buf, x, sizeof(double) * N * N);
  return factor(buf, buf);
}
static void factor_same_grad(const double *x, double *g) {
  memcpy(buf, x, sizeof(double) * N * N);
  memset(dbuf, 0, sizeof dbuf);
  __parad_autodiff((void *)factor, buf, dbuf, buf, dbuf);
  memcpy(g, dbuf, sizeof(double) * N * N);
}
static double factor_same_tangent(const double *x, const double *v) {
  memcpy(buf, x, sizeof(double) * N * N);
  memcpy(dbuf, v, sizeof(double) * N * N);
  return __parad_fwddiff((void *)factor, buf, dbuf, buf, dbuf);
}

static double chol_apart(const double *x) { return chol(x, buf); }
static void chol_apart_grad(const double *x, double *g) {
  memset(dbuf, 0, sizeof dbuf);
  __parad_autodiff((void *)chol, x, g, buf, dbuf);
}
static double chol_apart_tangent(const double *x, const double *v) {
  memset(dbuf, 0, sizeof dbuf);
  return __parad_fwddiff((void *)chol, x, v, buf, dbuf);
}

/* y apart from x, stride 2; then y inside x, read backwards (stride -1 from x's end) */
static double rows_apart(const double *x) {
  memcpy(buf, x, sizeof(double) * 2 * N);
  memset(buf + 3 * N, 0, sizeof(double) * N);
  return offset_rows(buf, buf + 3 * N, N, stride_at_run_time);
}
static void rows_apart_grad(const double *x, double *g) {
  memcpy(buf, x, sizeof(double) * 2 * N);
  memset(buf + 3 * N, 0, sizeof(double) * N);
  memset(dbuf, 0, sizeof dbuf);
  __parad_autodiff((void *)offset_rows, buf, dbuf, buf + 3 * N, dbuf + 3 * N, N, stride_at_run_time);
  memcpy(g, dbuf, sizeof(double) * 2 * N);
}
static double rows_apart_tangent(const double *x, const double *v) {
  memcpy(buf, x, sizeof(double) * 2 * N);
  memset(buf + 3 * N, 0, sizeof(double) * N);
  memset(dbuf, 0, sizeof dbuf);
  memcpy(dbuf, v, sizeof(double) * 2 * N);
  return __parad_fwddiff((void *)offset_rows, buf, dbuf, buf + 3 * N, dbuf + 3 * N, N, stride_at_run_time);
}
static double rows_over(const double *x) {
  memcpy(buf, x, sizeof(double) * 2 * N);
  return offset_rows(buf + 2 * N - 1, buf + N / 2, N, -1);
}
static void rows_over_grad(const double *x, double *g) {
  memcpy(buf, x, sizeof(double) * 2 * N);
  memset(dbuf, 0, sizeof dbuf);
  __parad_autodiff((void *)offset_rows, buf + 2 * N - 1, dbuf + 2 * N - 1, buf + N / 2, dbuf + N / 2, N, -1);
  memcpy(g, dbuf, sizeof(double) * 2 * N);
}
static double rows_over_tangent(const double *x, const double *v) {
  memcpy(buf, x, sizeof(double) * 2 * N);
  memcpy(dbuf, v, sizeof(double) * 2 * N);
  return __parad_fwddiff((void *)offset_rows, buf + 2 * N - 1, dbuf + 2 * N - 1, buf + N / 2, dbuf + N / 2, N, -1);
}

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

static FILE *before; /* the tapes of the build without the choice */

static double swap_apart(const double *x) { return swapped(x, buf); }
static void swap_apart_grad(const double *x, double *g) {
  memset(dbuf, 0, sizeof dbuf);
  __parad_autodiff((void *)swapped, x, g, buf, dbuf);
}
static double swap_apart_tangent(const double *x, const double *v) {
  memset(dbuf, 0, sizeof dbuf);
  return __parad_fwddiff((void *)swapped, x, v, buf, dbuf);
}
/* u0 at work + S + 4: the first step's stores into b overwrite it */
static double swap_over(const double *x) {
  memcpy(buf + S + 4, x, sizeof(double) * S);
  return swapped(buf + S + 4, buf);
}
static void swap_over_grad(const double *x, double *g) {
  memcpy(buf + S + 4, x, sizeof(double) * S);
  memset(dbuf, 0, sizeof dbuf);
  __parad_autodiff((void *)swapped, buf + S + 4, dbuf + S + 4, buf, dbuf);
  memcpy(g, dbuf + S + 4, sizeof(double) * S);
}
static double swap_over_tangent(const double *x, const double *v) {
  memcpy(buf + S + 4, x, sizeof(double) * S);
  memset(dbuf, 0, sizeof dbuf);
  memcpy(dbuf + S + 4, v, sizeof(double) * S);
  return __parad_fwddiff((void *)swapped, buf + S + 4, dbuf + S + 4, buf, dbuf);
}

static void check_case(const Case *c, const double *x0) {
  int n = c->n;
  double *x = malloc(sizeof *x * n), *g = calloc(n, sizeof *g), *v = malloc(sizeof *v * n);
  double *xp = malloc(sizeof *xp * n), *xm = malloc(sizeof *xm * n), h = 1e-6;
  memcpy(x, x0, sizeof *x * n);
  parad_tape_reset_peak();
  c->grad(x, g);
  size_t tape = parad_tape_peak_bytes();
  for (int d = 0; d < 3; d++) {
    double gv = 0;
    for (int i = 0; i < n; i++) v[i] = cos(1.3 * i + d), gv += g[i] * v[i], xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
    double fd = (c->f(xp) - c->f(xm)) / (2 * h), tangent = c->tangent ? c->tangent(x, v) : gv;
    printf("%s, direction %d: gradient . v = %.15g, tangent %.15g, difference %.15g\n", c->name, d, gv, tangent, fd);
    CHECK_CLOSE(gv, fd, 1e-6);
    CHECK_CLOSE(gv, tangent, 1e-10);
  }
  printf("tape of %s: %zu bytes, %.2f per multiply-add\n", c->name, tape, tape / c->work);
  char line[256], want[128];
  size_t written = 0;
  snprintf(want, sizeof want, "tape of %s: %%zu bytes", c->name);
  if (before) rewind(before);
  while (before && fgets(line, sizeof line, before))
    if (sscanf(line, want, &written) == 1) break;
  if (before && c->apart >= 0) {
    printf("%s: %zu bytes as written: %s\n", c->name, written,
           c->apart == 2 ? "less expected" : c->apart ? "at most half expected" : "about as much expected");
    CHECK_CLOSE(c->apart == 2 ? tape < written : c->apart ? 2 * tape <= written : 10 * tape >= 9 * written, 1, 0);
  }
  free(x), free(g), free(v), free(xp), free(xm);
}

int main(int argc, char **argv) {
  if (argc > 1) before = fopen(argv[1], "r");
  for (int i = 0; i < (int)(sizeof W / sizeof *W); i++) W[i] = sin(0.37 * i + 0.2);
  double x[4 * N * N];
  for (int i = 0; i < 4 * N * N; i++) x[i] = 0.5 * cos(0.71 * i);
  double spd[N * N]; /* diagonally dominant, symmetric: factorisations without pivots */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) spd[i * N + j] = i == j ? N + 1.0 : 0.3 * cos(i + j);
  double mp = (double)M * P * Q, lu = (double)N * N * N / 3, ch = (double)N * N * N / 6;
  Case cases[] = {
      {"product, apart", M * P + P * Q, prod_apart, prod_apart_grad, prod_apart_tangent, 1, mp},
      {"product, C over B", M * P + P * Q, prod_over, prod_over_grad, prod_over_tangent, 0, mp},
      {"product, one shadow for A and B", M * P + P * Q, prod_shared, prod_shared_grad, NULL, -1, mp},
      {"factor, apart", N * N, factor_apart, factor_apart_grad, factor_apart_tangent, 1, lu},
      {"factor, in place", N * N, factor_same, factor_same_grad, factor_same_tangent, 0, lu},
      {"chol, apart", N * N, chol_apart, chol_apart_grad, chol_apart_tangent, 1, ch},
      {"offset_rows, apart", 2 * N, rows_apart, rows_apart_grad, rows_apart_tangent, -1, 3 * N},
      {"offset_rows, overlapping", 2 * N, rows_over, rows_over_grad, rows_over_tangent, -1, 3 * N},
      {"unsigned_sum", N, usum, usum_grad, usum_tangent, 0, N},
      {"escapes", N, esc, esc_grad, esc_tangent, 0, N},
      {"swapped, apart", S, swap_apart, swap_apart_grad, swap_apart_tangent, 2, S * STEPS},
      {"swapped, u0 inside work", S, swap_over, swap_over_grad, swap_over_tangent, 0, S * STEPS},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) check_case(&cases[k], k == 3 || k == 4 || k == 5 ? spd : x);
  return check_done();
}
