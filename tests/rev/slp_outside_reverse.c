// The SLP vectoriser kept out of reverse sweeps (ad/slp_outside_reverse.h). An in-place Gauss-Seidel
// sweep's reverse loop adds into the adjoints of u[i-1], u[i] and u[i+1] every iteration; paired into
// 16-byte read-modify-writes, each iteration's pair half overlaps the last one's store and waits for it.
// The gradients of a 1-D and a 2-D (9-point) sweep and of a straight-line function whose primal SLP
// pairs are checked against tangents (1e-10) and central differences (h = 1e-6, 1e-6), at -O2 and -O0;
// the -O2 build's IR (loop vectoriser off, so that every vector store is SLP's) must hold no vector store
// in the reverse sweeps and their callers, and still pair the primal's and the tangent's stores.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
// RUN: %parad-cc %cflags -fno-vectorize -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=PRIMAL < %t.ll
// RUN: FileCheck %s --check-prefix=TANGENT < %t.ll
// RUN: awk '/^define/ { rev = /@(reverse[.]|main[(])/ } rev && /store <[0-9]+ x double>/ { print; bad = 1 } END { exit bad }' %t.ll
// PRIMAL-LABEL: define {{.*}} @pairs(
// PRIMAL: store <2 x double>
// TANGENT-LABEL: define {{.*}} @fwddiffe.pairs
// TANGENT: store <2 x double>
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 9, R = 6, C = 7, STEPS = 3 };

static double gs(const double *x) {
  double u[N];
  for (int i = 0; i < N; i++) u[i] = x[i];
  for (int t = 0; t < STEPS; t++)
    for (int i = 1; i < N - 1; i++) u[i] = (u[i - 1] + u[i] + u[i + 1]) / 3 + 0.1 * sin(u[i]);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * u[i] * u[i];
  return s;
}

static double gs2d(const double *x) {
  double a[R][C];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) a[i][j] = x[i * C + j];
  for (int t = 0; t < STEPS; t++)
    for (int i = 1; i < R - 1; i++)
      for (int j = 1; j < C - 1; j++)
        a[i][j] = (a[i - 1][j - 1] + a[i - 1][j] + a[i - 1][j + 1] + a[i][j - 1] + a[i][j] + a[i][j + 1] +
                   a[i + 1][j - 1] + a[i + 1][j] + a[i + 1][j + 1]) / 9 * (1 + 0.05 * a[i][j]);
  double s = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) s += a[i][j] * a[i][j] * (1 + 0.1 * j);
  return s;
}

__attribute__((noinline)) void pairs(double *restrict out, const double *restrict x) {
  out[0] = x[0] * x[1] + x[2];
  out[1] = x[1] * x[2] + x[3];
}

static double pairs_sum(const double *x) {
  double out[2];
  pairs(out, x);
  return out[0] * out[0] + 3 * out[1];
}

int main(void) {
  double x[R * C];
  for (int i = 0; i < R * C; i++) x[i] = 0.3 + 0.4 * sin(1.7 * i);
  CHECK_GRADIENT(gs, x, N, 1e-10, 1e-6, 1e-6);
  CHECK_GRADIENT(gs2d, x, R * C, 1e-10, 1e-6, 1e-6);
  CHECK_GRADIENT(pairs_sum, x, 4, 1e-10, 1e-6, 1e-6);
  return check_done();
}
