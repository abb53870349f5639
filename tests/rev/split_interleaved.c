// Split mode with two different functions interleaved: a layer f1 (x -> y, written to a buffer) and a
// loss f2 (y -> scalar) are run forward with __parad_augmentfwd one after the other, for two inputs
// (four tapes alive at once), then reversed in the order a backpropagation does it (f2 then f1, the
// adjoint of y passed from one to the other through y's shadow) and with the two samples' reverses
// interleaved in the opposite order of their forwards. The chained gradient must equal __parad_autodiff
// of the composition (tolerance 1e-12, rounding only), the forward tangents of the composition along
// every unit direction (tolerance 1e-12), and central finite differences (h = 1e-6, tolerance 1e-7).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

void *__parad_augmentfwd(void *, ...);
void __parad_reverse(void *, ...);
double __parad_reverse_d(void *, ...);
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
extern int parad_tape;

enum { N = 4, M = 3 };

__attribute__((noinline)) static void layer(const double *x, const double *w, double *y) {
  for (int i = 0; i < M; i++) {
    double s = 0;
    for (int j = 0; j < N; j++) s += w[i * N + j] * x[j];
    y[i] = tanh(s);
  }
}

__attribute__((noinline)) static double loss(const double *y, double target) {
  double l = 0;
  for (int i = 0; i < M; i++) l += (y[i] - target) * (y[i] - target) * (i + 1);
  return l;
}

static double composed(const double *x, const double *w, double target) {
  double y[M];
  layer(x, w, y);
  return loss(y, target);
}

static double W[M * N], X[2][N], TARGET = 0.3;
typedef struct { int sample, k; } Ctx;

static double along(void *p, double e) { /* unit direction k of (x, w, target) */
  Ctx *c = p;
  double x[N], w[M * N];
  for (int j = 0; j < N; j++) x[j] = X[c->sample][j] + (c->k == j) * e;
  for (int i = 0; i < M * N; i++) w[i] = W[i] + (c->k == N + i) * e;
  return composed(x, w, TARGET + (c->k == N + M * N) * e);
}

int main(void) {
  for (int i = 0; i < M * N; i++) W[i] = sin(1.1 * i) * 0.7;
  for (int s = 0; s < 2; s++)
    for (int j = 0; j < N; j++) X[s][j] = cos(0.9 * j + s) - 0.2 * s;
  double y[2][M], dy[2][M] = {{0}}, dx[2][N] = {{0}}, dw[2][M * N] = {{0}}, dt[2];
  void *t1[2], *t2[2];
  for (int s = 0; s < 2; s++) {
    t1[s] = __parad_augmentfwd((void *)layer, X[s], dx[s], W, dw[s], y[s], dy[s]);
    t2[s] = __parad_augmentfwd((void *)loss, y[s], dy[s], TARGET);
  }
  for (int s = 1; s >= 0; s--) {
    dt[s] = __parad_reverse_d((void *)loss, y[s], dy[s], TARGET, 1.0, parad_tape, t2[s]);
    __parad_reverse((void *)layer, X[s], dx[s], W, dw[s], y[s], dy[s], parad_tape, t1[s]);
  }
  for (int s = 0; s < 2; s++) {
    double rx[N] = {0}, rw[M * N] = {0};
    double rt = __parad_autodiff((void *)composed, X[s], rx, W, rw, TARGET);
    CHECK_CLOSE(dt[s], rt, 1e-12);
    for (int j = 0; j < N; j++) CHECK_CLOSE(dx[s][j], rx[j], 1e-12);
    for (int i = 0; i < M * N; i++) CHECK_CLOSE(dw[s][i], rw[i], 1e-12);
    for (int i = 0; i < M; i++) CHECK_CLOSE(dy[s][i], 0.0, 0); /* consumed by layer's reverse */
    for (int k = 0; k <= N + M * N; k++) {
      double got = k < N ? dx[s][k] : k < N + M * N ? dw[s][k - N] : dt[s];
      double ex[N], ew[M * N];
      for (int j = 0; j < N; j++) ex[j] = k == j;
      for (int i = 0; i < M * N; i++) ew[i] = k == N + i;
      CHECK_CLOSE(got, __parad_fwddiff((void *)composed, X[s], ex, W, ew, TARGET, (double)(k == N + M * N)), 1e-12);
      Ctx c = {s, k};
      CHECK_CLOSE(got, fd_central(along, &c, 0, 1e-6), 1e-7);
    }
  }
  return check_done();
}
