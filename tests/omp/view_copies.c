// Floats copied out of a view of active or constant memory: `const double *p = x[0] > 0 ? x : c;` then
// memcpy or memmove from p, c passed as constant (once refused: "this copy needs a shadow for memory that
// has none"). The constant side shadows itself, and the copy of the shadow compares the view's shadow
// address with its address: equal, the view is on c, and the destination's tangent becomes zero
// (forward) or its adjoint is dropped (reverse). c is a static const table: a reverse sweep that added
// into it would fault, and a tangent that read it would be wrong. Cases, each with x chosen and with c
// chosen:
//   copied: memcpy of the whole view into a local array, f = sum_i sin(b_i) x_i;
//   moved:  memmove of the view from its second element into a heap block, f = sum_i h_i x_i;
//   region: in `#pragma omp parallel for`, each iteration copies three elements of a shared view from
//           its own index into a local array (windows that overlap other threads': their adjoints add
//           atomically), y_i = (b_0 + 2 b_1 + 3 b_2) x_i;
//   stencil: the same windows read directly, y_i = (p_i + 2 p_{i+1} + 3 p_{i+2}) x_i, as -O0's copy of
//           `region` reads them once optimised (once a fault: the reverse sweep summed the three reads'
//           adjoints in registers along the loop, rev_window.c, and added them into c);
//   bits:   in `#pragma omp parallel for`, one element of the view copied through a `long long`, which the
//           optimiser makes an i64 load of the view and an i64 store (once refused: the view's walk took
//           loads of floats only), y_i = p_{i+1} x_i;
//   lanes:  `copied` in vector forward mode, two directions in one call.
// Gradients against analytic ones (1e-12), tangents along every unit direction (1e-12) and central
// differences (h = 1e-6, tolerance 1e-7), at 1 to 4 threads at -O2, 3 at -O0 and 2 at -O3 -march=native;
// the table is checked unchanged.
// RUN: %parad-cc %cflags -fopenmp %s -o %t -lm && OMP_NUM_THREADS=1 %t && OMP_NUM_THREADS=2 %t && OMP_NUM_THREADS=3 %t && OMP_NUM_THREADS=4 %t
// RUN: %parad-cc -O0 -fopenmp -I%S/../include %s -o %t0 -lm && OMP_NUM_THREADS=3 %t0
// RUN: %parad-cc -O3 -march=native -fopenmp -I%S/../include %s -o %tn -lm && OMP_NUM_THREADS=2 %tn
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
typedef struct {
  double d[2];
} V2;
V2 __parad_fwddiff2(void *, ...);

enum { N = 7, M = 40 };
static const double TABLE[M + 2] = {0.5,   -1.25, 2.0,   0.75,  -0.5,  1.5,  0.25,  -0.75, 1.0,   -2.0,  0.125,
                                    0.375, -1.5,  1.75,  -0.25, 0.5,   1.25, -1.0,  2.25,  0.625, -0.125, 1.125,
                                    -0.875, 0.25, 1.5,   -0.5,  0.75,  -1.75, 0.5,  1.0,   -0.25, 0.875, -1.125,
                                    0.375, 1.625, -0.625, 0.25, 1.0,   -0.5,  0.75, 1.25,  -1.5};

__attribute__((noinline)) double copied(const double *x, const double *c, int n) {
  const double *p = x[0] > 0 ? x : c;
  double b[N];
  memcpy(b, p, sizeof(double) * (size_t)n);
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(b[i]) * x[i];
  return s;
}

__attribute__((noinline)) double moved(const double *x, const double *c, int n) {
  const double *p = x[0] > 0 ? x : c;
  double *h = malloc(sizeof(double) * (size_t)n);
  memmove(h, p + 1, sizeof(double) * (size_t)(n - 1));
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += h[i] * x[i];
  free(h);
  return s;
}

__attribute__((noinline)) void region(const double *x, const double *c, double *y, int m) {
  const double *p = x[0] > 0 ? x : c;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < m; i++) {
    double b[3];
    memcpy(b, p + i, sizeof b);
    y[i] = (b[0] + 2 * b[1] + 3 * b[2]) * x[i];
  }
}

__attribute__((noinline)) void stencil(const double *x, const double *c, double *y, int m) {
  const double *p = x[0] > 0 ? x : c;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < m; i++) y[i] = (p[i] + 2 * p[i + 1] + 3 * p[i + 2]) * x[i];
}

__attribute__((noinline)) void bits(const double *x, const double *c, double *y, int m) {
  const double *p = x[0] > 0 ? x : c;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < m; i++) {
    long long t;
    memcpy(&t, p + i + 1, sizeof t);
    memcpy(y + i, &t, sizeof t);
    y[i] *= x[i];
  }
}

static double X[M + 2];
static int WHICH, COMPONENT;

/* The function each case checks, of X: for `region`, sum_i w_i y_i with w_i = 1 + 0.1 i. */
static double value(void) {
  if (WHICH == 0) return copied(X, TABLE, N);
  if (WHICH == 1) return moved(X, TABLE, N);
  double y[M], s = 0;
  if (WHICH == 2) region(X, TABLE, y, M);
  else if (WHICH == 3) stencil(X, TABLE, y, M);
  else bits(X, TABLE, y, M);
  for (int i = 0; i < M; i++) s += (1 + 0.1 * i) * y[i];
  return s;
}

static double along(void *ctx, double t) {
  (void)ctx;
  double keep = X[COMPONENT];
  X[COMPONENT] = keep + t;
  double v = value();
  X[COMPONENT] = keep;
  return v;
}

/* The analytic gradient of the case's function at X, component j. */
static double want(int j) {
  const double *p = X[0] > 0 ? X : TABLE;
  int on_x = X[0] > 0;
  if (WHICH == 0) return j < N ? sin(p[j]) + (on_x ? cos(X[j]) * X[j] : 0) : 0;
  if (WHICH == 1) {
    if (j >= N) return 0;
    double g = j + 1 < N ? p[j + 1] : 0;
    if (on_x && j >= 1) g += X[j - 1];
    return g;
  }
  double g = 0;
  if (WHICH == 4) {
    if (j < M) g += (1 + 0.1 * j) * p[j + 1];
    if (on_x && j >= 1 && j - 1 < M) g += (1 + 0.1 * (j - 1)) * X[j - 1];
    return g;
  }
  if (j < M) g += (1 + 0.1 * j) * (p[j] + 2 * p[j + 1] + 3 * p[j + 2]);
  if (on_x)
    for (int k = 0; k < 3; k++) /* y_i reads p[j] as b_k where i = j - k */
      if (j - k >= 0 && j - k < M) g += (1 + 0.1 * (j - k)) * (k + 1) * X[j - k];
  return g;
}

static void check_case(int which) {
  WHICH = which;
  int n = which >= 2 ? M + 2 : N;
  double g[M + 2] = {0}, e[M + 2] = {0}, w[M], dw[M], y[M], dy[M];
  for (int i = 0; i < M; i++) w[i] = 1 + 0.1 * i;
  if (which == 0) __parad_autodiff((void *)copied, X, g, parad_const, TABLE, N);
  else if (which == 1) __parad_autodiff((void *)moved, X, g, parad_const, TABLE, N);
  else {
    for (int i = 0; i < M; i++) dw[i] = w[i];
    if (which == 2) __parad_autodiff((void *)region, X, g, parad_const, TABLE, y, dw, M);
    else if (which == 3) __parad_autodiff((void *)stencil, X, g, parad_const, TABLE, y, dw, M);
    else __parad_autodiff((void *)bits, X, g, parad_const, TABLE, y, dw, M);
  }
  for (int j = 0; j < n; j++) {
    CHECK_CLOSE(g[j], want(j), 1e-12);
    e[j] = 1;
    double t = 0;
    if (which == 0) t = __parad_fwddiff((void *)copied, X, e, parad_const, TABLE, N);
    else if (which == 1) t = __parad_fwddiff((void *)moved, X, e, parad_const, TABLE, N);
    else {
      if (which == 2) __parad_fwddiff((void *)region, X, e, parad_const, TABLE, y, dy, M);
      else if (which == 3) __parad_fwddiff((void *)stencil, X, e, parad_const, TABLE, y, dy, M);
      else __parad_fwddiff((void *)bits, X, e, parad_const, TABLE, y, dy, M);
      for (int i = 0; i < M; i++) t += w[i] * dy[i];
    }
    e[j] = 0;
    CHECK_CLOSE(t, want(j), 1e-12);
    COMPONENT = j;
    CHECK_CLOSE(fd_central(along, NULL, 0, 1e-6), want(j), 1e-7);
  }
  if (which == 0) { /* two directions at once: e_1 and 2 e_3 - e_4 */
    double d0[N] = {0}, d1[N] = {0};
    d0[1] = 1, d1[3] = 2, d1[4] = -1;
    V2 t = __parad_fwddiff2((void *)copied, parad_width, 2, X, d0, d1, parad_const, TABLE, N);
    CHECK_CLOSE(t.d[0], want(1), 1e-12);
    CHECK_CLOSE(t.d[1], 2 * want(3) - want(4), 1e-12);
  }
}

int main(void) {
  double before[M + 2];
  memcpy(before, TABLE, sizeof before);
  for (int sign = 1; sign >= -1; sign -= 2) { /* the view on x, then on c */
    for (int i = 0; i < M + 2; i++) X[i] = sign * (0.9 - 0.04 * i) + 0.3 * sin(i);
    for (int which = 0; which < 5; which++) check_case(which);
  }
  for (int i = 0; i < M + 2; i++) CHECK_CLOSE(TABLE[i], before[i], 0);
  return check_done();
}
