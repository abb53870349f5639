// realloc of a block that held only constants when it grew: the old block has no derivative of its own, yet
// the new one receives active data, so both need a shadow (once refused at -O2: "this realloc needs a shadow
// for memory that has none"). f(x, s): m = malloc(2) filled with 1.5, 2.5; m = realloc(m, 4); m[2] = s x_0,
// m[3] = m[0] x_1; r = m[0] + m[1] m[2] + m[3] m[2]; and a table grown constant by constant in a loop
// (realloc from NULL, capacity doubling), whose later entries are active: table(x, n) = sum_k c_k t_k with
// t_k = 0.5 k for k < 5 and x_{k mod 3} (k + 1) for k >= 5 (n entries). And a block of doubles grown by
// realloc beside a block of structs, both freed at exits the optimiser merges (a phi of the two blocks at
// the free, which once made the realloc's data look mixed): two(x) = sum_i h_i^2 + r.a with h_i = x_0 i
// (h grown from 4 to 8 entries), r = {x_1, 3, x_1^2}; d/dx_0 = 2 x_0 sum_i i^2, d/dx_1 = 1.
// Analytic: dr/dx_0 = 2.5 s + 1.5 x_1 s, dr/dx_1 = 1.5 s x_0, dr/ds = 2.5 x_0 + 1.5 x_1 x_0; the table's
// gradient sums (k + 1) c_k into x_{k mod 3} (tolerance 1e-12); forward tangents along every input (1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O3 -I%S/../include %s -o %t3 && %t3
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdlib.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double f(const double *x, double s) {
  double *m = malloc(2 * sizeof *m);
  m[0] = 1.5;
  m[1] = 2.5;
  m = realloc(m, 4 * sizeof *m);
  m[2] = s * x[0];
  m[3] = m[0] * x[1];
  double r = m[0] + m[1] * m[2] + m[3] * m[2];
  free(m);
  return r;
}

static double coef(int k) { return 1.0 / (1 + k); }

__attribute__((noinline)) static double table(const double *x, int n) {
  double *t = NULL;
  int cap = 0;
  for (int k = 0; k < n; k++) {
    if (k == cap) {
      cap = cap ? 2 * cap : 2;
      t = realloc(t, cap * sizeof *t);
    }
    t[k] = k < 5 ? 0.5 * k : x[k % 3] * (k + 1);
  }
  double r = 0;
  for (int k = 0; k < n; k++) r += coef(k) * t[k];
  free(t);
  return r;
}

typedef struct {
  double a;
  int k;
  double b;
} Rec;

__attribute__((noinline)) static double first_a(const Rec *r) { return r[0].a + r[0].k - 3; }

__attribute__((noinline)) static double two(const double *x, int early) {
  double *h = malloc(4 * sizeof *h);
  Rec *r = malloc(2 * sizeof *r);
  r[0].a = x[1], r[0].k = 3, r[0].b = x[1] * x[1];
  for (int i = 0; i < 4; i++) h[i] = x[0] * i;
  if (early > 1) {
    double e = h[1] + r[0].b;
    free(h);
    free(r);
    return e;
  }
  h = realloc(h, 8 * sizeof *h);
  for (int i = 4; i < 8; i++) h[i] = x[0] * i;
  double s = first_a(r);
  for (int i = 0; i < 8; i++) s += h[i] * h[i];
  free(r);
  free(h);
  return s;
}

int main(void) {
  double x[3] = {0.7, -1.2, 0.4}, dx[3] = {0}, s = 1.9;
  double ds = __parad_autodiff((void *)f, x, dx, s);
  CHECK_CLOSE(dx[0], 2.5 * s + 1.5 * x[1] * s, 1e-12);
  CHECK_CLOSE(dx[1], 1.5 * s * x[0], 1e-12);
  CHECK_CLOSE(ds, 2.5 * x[0] + 1.5 * x[1] * x[0], 1e-12);
  for (int k = 0; k < 2; k++) {
    double e[3] = {k == 0, k == 1, 0};
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, e, s, 0.0), dx[k], 1e-12);
  }
  double e0[3] = {0};
  CHECK_CLOSE(__parad_fwddiff((void *)f, x, e0, s, 1.0), ds, 1e-12);

  enum { N = 37 };
  double dt[3] = {0}, want[3] = {0};
  __parad_autodiff((void *)table, x, dt, N);
  for (int k = 5; k < N; k++) want[k % 3] += (k + 1) * coef(k);
  for (int j = 0; j < 3; j++) {
    CHECK_CLOSE(dt[j], want[j], 1e-12);
    double e[3] = {j == 0, j == 1, j == 2};
    CHECK_CLOSE(__parad_fwddiff((void *)table, x, e, N), want[j], 1e-12);
  }
  double dtwo[3] = {0};
  __parad_autodiff((void *)two, x, dtwo, 0);
  CHECK_CLOSE(dtwo[0], 2 * x[0] * 140, 1e-12);
  CHECK_CLOSE(dtwo[1], 1, 1e-12);
  return check_done();
}
