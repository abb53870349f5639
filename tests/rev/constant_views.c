// A view of either active or constant memory: `const double *p = x[0] > 0 ? x : c`, then p[i] at any
// index, c passed as constant (once refused: the constant side would need a shadow of its size). The
// constant side shadows itself, and each load through the view compares its shadow address with its
// address: equal, the view is on c, and the load reads zeros (forward) or adds into a sink (reverse).
// Cases: the view read along a loop, with x[0] choosing x, then c; a view walked by a pointer to its end
// and read at k, chosen by k (x for k > 2, c otherwise). c is a static const table: a reverse sweep that
// added into it would fault, and a tangent that read it would be wrong. f_rows = sum_i p_i x_i,
// f_walked = (sum_i p_i) x_k + p_k^2. Analytic gradients (tolerance 1e-12), forward tangents along every
// unit direction (1e-12), central finite differences (h = 1e-6, tolerance 1e-7). And y_i = p_i x_i over
// 100 elements into an output array, a loop the final optimisation vectorises with the compares in it
// (also with -march=native): the gradient of sum_i w_i y_i, tangents along three directions (every y_i's),
// and the table left as it was.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 && %t3
// RUN: %parad-cc -O3 -march=native -I%S/../include %s -o %tn && %tn
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 6 };
static const double TABLE[N] = {0.5, -1.25, 2.0, 0.75, -0.5, 1.5};

__attribute__((noinline)) static double rows(const double *x, const double *c, int n) {
  const double *p = x[0] > 0 ? x : c;
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i] * x[i];
  return s;
}

__attribute__((noinline)) static double walked(const double *x, const double *c, int n, int k) {
  const double *p = k > 2 ? x : c;
  double s = 0;
  for (const double *q = p; q < p + n; q++) s += *q;
  return s * x[k] + p[k] * p[k];
}

enum { M = 100 };
static double LONG[M]; /* filled in main: the derivatives must leave it as it is */

__attribute__((noinline)) static void scaled(const double *restrict x, const double *restrict c, double *restrict y,
                                             int n) {
  const double *p = x[0] > 0 ? x : c;
  for (int i = 0; i < n; i++) y[i] = p[i] * x[i];
}

static double X0[N];
static int K;
typedef struct {
  int which, j;
} Along;
static double along(void *ctx, double t) {
  Along *a = ctx;
  double x[N];
  for (int i = 0; i < N; i++) x[i] = X0[i] + (i == a->j) * t;
  return a->which ? walked(x, TABLE, N, K) : rows(x, TABLE, N);
}

static void check(int which, const double *want) {
  double g[N] = {0}, e[N];
  if (which) __parad_autodiff((void *)walked, X0, g, parad_const, TABLE, N, K);
  else __parad_autodiff((void *)rows, X0, g, parad_const, TABLE, N);
  for (int j = 0; j < N; j++) {
    CHECK_CLOSE(g[j], want[j], 1e-12);
    for (int i = 0; i < N; i++) e[i] = i == j;
    double t = which ? __parad_fwddiff((void *)walked, X0, e, parad_const, TABLE, N, K)
                     : __parad_fwddiff((void *)rows, X0, e, parad_const, TABLE, N);
    CHECK_CLOSE(t, want[j], 1e-12);
    Along a = {which, j};
    CHECK_CLOSE(fd_central(along, &a, 0, 1e-6), want[j], 1e-7);
  }
}

static void check_long(void) {
  double x[M], g[M], y[M], dy[M], e[M] = {0};
  for (int i = 0; i < M; i++) LONG[i] = 0.01 * i - 0.3;
  for (int sign = 1; sign >= -1; sign -= 2) {
    for (int i = 0; i < M; i++) x[i] = sign * (1.5 - 0.02 * i), g[i] = 0, dy[i] = 1 + 0.01 * i;
    __parad_autodiff((void *)scaled, x, g, parad_const, LONG, y, dy, M);
    for (int j = 0; j < M; j++) CHECK_CLOSE(g[j], (1 + 0.01 * j) * (sign > 0 ? 2 * x[j] : LONG[j]), 1e-12);
    for (int j = 0; j < M; j += 33) {
      e[j] = 1;
      __parad_fwddiff((void *)scaled, x, e, parad_const, LONG, y, dy, M);
      for (int i = 0; i < M; i++) CHECK_CLOSE(dy[i], i == j ? (sign > 0 ? 2 * x[j] : LONG[j]) : 0, 1e-12);
      e[j] = 0;
    }
  }
  for (int i = 0; i < M; i++) CHECK_CLOSE(LONG[i], 0.01 * i - 0.3, 0);
}

int main(void) {
  double want[N];
  for (int sign = 1; sign >= -1; sign -= 2) { /* the view on x, then on c */
    for (int i = 0; i < N; i++) X0[i] = sign * (0.9 - 0.3 * i);
    for (int j = 0; j < N; j++) want[j] = X0[0] > 0 ? 2 * X0[j] : TABLE[j];
    check(0, want);
  }
  for (K = 1; K <= 4; K += 3) { /* c, then x */
    double sx = 0, sc = 0;
    for (int i = 0; i < N; i++) X0[i] = 0.4 * i - 0.7, sx += X0[i], sc += TABLE[i];
    for (int j = 0; j < N; j++)
      want[j] = K > 2 ? X0[K] + (j == K) * (sx + 2 * X0[K]) : (j == K) * sc;
    check(1, want);
  }
  check_long();
  return check_done();
}
