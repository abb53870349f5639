// One function differentiated in reverse mode with many activity patterns: each of its two arrays and two
// scalars is active (dup / out) or constant in turn, giving one augmented and reverse pair per pattern,
// and inside it a helper is called with an active pointer and a constant table, with two active
// pointers, and with only constant data. Every pattern's gradients must equal the matching entries of the
// all-active gradient (tolerance 1e-12, rounding only), which is checked against forward tangents along
// every unit direction (tolerance 1e-12) and central finite differences (h = 1e-6, tolerance 1e-7).
// (At -O0 a constant pointer passed on to a callee is refused: see const_pointer_O0.c.pending.)
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

typedef struct { double ds, dt; } G2;
void __parad_autodiff(void *, ...);
double __parad_autodiff1(void *, ...);
G2 __parad_autodiff2(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 4 };
static const double table[N] = {0.5, -1.0, 2.0, 0.25};

__attribute__((noinline)) static double dotw(const double *p, const double *q, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i] * q[i] * (1 + 0.1 * i);
  return s;
}

__attribute__((noinline)) static double f(const double *a, const double *b, double s, double t) {
  double r = dotw(a, table, N) * s + dotw(a, b, N) * t + dotw(table, table, N) * s * t;
  return r + sin(dotw(b, table, N)) * s * s;
}

static double A[N] = {0.3, -0.7, 1.1, 0.4}, B[N] = {1.2, 0.5, -0.3, 0.8}, S = 0.9, T = -1.3;

static double along(void *ctx, double e) { /* unit direction k of (a, b, s, t) */
  int k = *(int *)ctx;
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = A[i] + (k == i) * e, b[i] = B[i] + (k == N + i) * e;
  return f(a, b, S + (k == 2 * N) * e, T + (k == 2 * N + 1) * e);
}

int main(void) {
  double da[N] = {0}, db[N] = {0};
  G2 g = __parad_autodiff2((void *)f, A, da, B, db, S, T);
  double full[2 * N + 2];
  for (int i = 0; i < N; i++) full[i] = da[i], full[N + i] = db[i];
  full[2 * N] = g.ds, full[2 * N + 1] = g.dt;
  for (int k = 0; k < 2 * N + 2; k++) {
    double ea[N], eb[N];
    for (int i = 0; i < N; i++) ea[i] = k == i, eb[i] = k == N + i;
    CHECK_CLOSE(full[k], __parad_fwddiff((void *)f, A, ea, B, eb, S, (double)(k == 2 * N), T, (double)(k == 2 * N + 1)), 1e-12);
    CHECK_CLOSE(full[k], fd_central(along, &k, 0, 1e-6), 1e-7);
  }
  /* a active only, s active only */
  double a1[N] = {0};
  double d1 = __parad_autodiff1((void *)f, A, a1, parad_const, B, S, parad_const, T);
  CHECK_CLOSE(d1, full[2 * N], 1e-12);
  for (int i = 0; i < N; i++) CHECK_CLOSE(a1[i], full[i], 1e-12);
  /* b active only, t active only */
  double b2[N] = {0};
  double d2 = __parad_autodiff1((void *)f, parad_const, A, B, b2, parad_const, S, T);
  CHECK_CLOSE(d2, full[2 * N + 1], 1e-12);
  for (int i = 0; i < N; i++) CHECK_CLOSE(b2[i], full[N + i], 1e-12);
  /* both arrays, no scalar */
  double a3[N] = {0}, b3[N] = {0};
  __parad_autodiff((void *)f, A, a3, B, b3, parad_const, S, parad_const, T);
  for (int i = 0; i < N; i++) CHECK_CLOSE(a3[i], full[i], 1e-12), CHECK_CLOSE(b3[i], full[N + i], 1e-12);
  /* only the scalars */
  G2 g4 = __parad_autodiff2((void *)f, parad_const, A, parad_const, B, parad_out, S, parad_out, T);
  CHECK_CLOSE(g4.ds, full[2 * N], 1e-12);
  CHECK_CLOSE(g4.dt, full[2 * N + 1], 1e-12);
  /* the first pattern again: the same pair serves both calls, and its shadows are added to */
  double a5[N] = {1, 1, 1, 1};
  __parad_autodiff1((void *)f, A, a5, parad_const, B, S, parad_const, T);
  for (int i = 0; i < N; i++) CHECK_CLOSE(a5[i], 1 + full[i], 1e-12);
  return check_done();
}
