// long double (x86 80-bit extended) in reverse mode: a scalar function of sinl, expl, logl and sqrtl whose
// gradient comes back as a long double, a two-argument function returning a struct of long double
// gradients, and a duplicated long double array updated in place with its shadow seeded. Compared in
// double with the analytic derivatives (tolerance 1e-12) and, for the scalar, in long double with
// relative error below 1e-16 (adjoints computed through double would miss this); the forward tangents
// along each unit direction agree to 1e-16 relative (both are extended-precision computations).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

long double __parad_autodiff_ld(void *, ...);
void __parad_autodiff_v(void *, ...);
typedef struct { long double dx, dy; } G2;
G2 __parad_autodiff_ld2(void *, ...);
long double __parad_fwddiff_ld(void *, ...);

__attribute__((noinline)) static long double f(long double x) {
  return sinl(x) * expl(0.5L * x) + logl(1 + x * x) / sqrtl(x + 2);
}

static long double df(long double x) {
  long double q = logl(1 + x * x), r = sqrtl(x + 2);
  return cosl(x) * expl(0.5L * x) + 0.5L * sinl(x) * expl(0.5L * x) + (2 * x / (1 + x * x)) / r - q / (2 * r * r * r);
}

__attribute__((noinline)) static long double g(long double x, long double y) { return powl(x, y) + x * y * y; }

__attribute__((noinline)) static long double norm_like(long double *v, int n) {
  long double s = 0;
  for (int i = 0; i < n; i++) {
    s += v[i] * v[i] * (1 + 0.1L * i);
    v[i] = expl(v[i]);
  }
  return sqrtl(s);
}

static double rel(long double a, long double b) { return (double)((a - b) / (fabsl(b) > 1 ? fabsl(b) : 1)); }

int main(void) {
  for (long double x = -1.5L; x < 3; x += 0.55L) {
    long double d = __parad_autodiff_ld((void *)f, x);
    CHECK_CLOSE((double)d, (double)df(x), 1e-12);
    CHECK_CLOSE(rel(d, df(x)), 0.0, 1e-16);
    CHECK_CLOSE(rel(d, __parad_fwddiff_ld((void *)f, x, 1.0L)), 0.0, 1e-16);
  }
  long double x = 1.3L, y = 0.7L;
  G2 gg = __parad_autodiff_ld2((void *)g, x, y);
  CHECK_CLOSE((double)gg.dx, (double)(y * powl(x, y - 1) + y * y), 1e-12);
  CHECK_CLOSE((double)gg.dy, (double)(powl(x, y) * logl(x) + 2 * x * y), 1e-12);
  CHECK_CLOSE(rel(gg.dx, __parad_fwddiff_ld((void *)g, x, 1.0L, y, 0.0L)), 0.0, 1e-16);
  CHECK_CLOSE(rel(gg.dy, __parad_fwddiff_ld((void *)g, x, 0.0L, y, 1.0L)), 0.0, 1e-16);

  enum { N = 5 };
  const long double v0[N] = {0.3L, -1.2L, 0.8L, 2.0L, -0.1L};
  long double v[N], dv[N], seed[N], s = 0;
  for (int i = 0; i < N; i++) v[i] = v0[i], seed[i] = dv[i] = 0.5L - 0.3L * i, s += v0[i] * v0[i] * (1 + 0.1L * i);
  __parad_autodiff_v((void *)norm_like, v, dv, parad_const, N);
  for (int k = 0; k < N; k++) {
    long double want = v0[k] * (1 + 0.1L * k) / sqrtl(s) + seed[k] * expl(v0[k]);
    CHECK_CLOSE((double)v[k], (double)expl(v0[k]), 1e-15);
    CHECK_CLOSE((double)dv[k], (double)want, 1e-12);
    long double v2[N], e[N], t;
    for (int i = 0; i < N; i++) v2[i] = v0[i], e[i] = i == k;
    t = __parad_fwddiff_ld((void *)norm_like, v2, e, parad_const, N);
    for (int i = 0; i < N; i++) t += seed[i] * e[i];
    CHECK_CLOSE(rel(dv[k], t), 0.0, 1e-16);
  }
  return check_done();
}
