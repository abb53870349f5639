// Indirect access in reverse mode: a gather x[idx[i]] through a constant index array with repeated
// indices turns into a scatter-add of adjoints (the repeated entries must accumulate, not overwrite), and a
// scatter-add y[idx[i]] += ... into an output array turns into a gather of the output's adjoint. Analytic
// gradients (tolerance 1e-12, rounding only) and forward tangents along every unit direction (1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
void __parad_fwddiff_v(void *, ...);

__attribute__((noinline)) static double gather_dot(const double *x, const int *idx, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * x[idx[i]] * exp(0.1 * x[idx[(i + 1) % n]]);
  return s;
}

__attribute__((noinline)) static void scatter_add(const double *x, const int *idx, double *y, int n) {
  for (int i = 0; i < n; i++) y[idx[i]] += x[i] * x[i] + sin(x[(i + 2) % n]);
}

enum { NX = 5, NI = 7 };

int main(void) {
  double x[NX] = {1, 2, -3, 0.4, 0.5}, w[NI] = {0.5, 1, 1.5, 2, -1, 0.25, 3};
  int idx[NI] = {4, 0, 2, 0, 0, 3, 4};
  double dx[NX] = {0}, e[NX];
  __parad_autodiff((void *)gather_dot, x, dx, parad_const, idx, parad_const, w, parad_const, NI);
  for (int k = 0; k < NX; k++) {
    double want = 0;
    for (int i = 0; i < NI; i++) {
      int a = idx[i], b = idx[(i + 1) % NI];
      double eb = exp(0.1 * x[b]);
      want += w[i] * ((a == k) * eb + (b == k) * x[a] * 0.1 * eb);
    }
    CHECK_CLOSE(dx[k], want, 1e-12);
    for (int i = 0; i < NX; i++) e[i] = i == k;
    CHECK_CLOSE(dx[k], __parad_fwddiff((void *)gather_dot, x, e, parad_const, idx, parad_const, w, parad_const, NI), 1e-12);
  }
  /* scatter: x has NI entries, y has NX; one row of the Jacobian per seed */
  double xs[NI];
  for (int i = 0; i < NI; i++) xs[i] = 0.3 * i - 0.7;
  for (int r = 0; r < NX; r++) {
    double y[NX] = {0}, dy[NX] = {0}, dxs[NI] = {0};
    dy[r] = 1;
    __parad_autodiff((void *)scatter_add, xs, dxs, parad_const, idx, y, dy, parad_const, NI);
    for (int k = 0; k < NI; k++) {
      double want = 0;
      for (int i = 0; i < NI; i++)
        if (idx[i] == r) want += (i == k) * 2 * xs[i] + ((i + 2) % NI == k) * cos(xs[k]);
      CHECK_CLOSE(dxs[k], want, 1e-12);
      double ex[NI], y2[NX] = {0}, dy2[NX] = {0};
      for (int i = 0; i < NI; i++) ex[i] = i == k;
      __parad_fwddiff_v((void *)scatter_add, xs, ex, parad_const, idx, y2, dy2, parad_const, NI);
      CHECK_CLOSE(dxs[k], dy2[r], 1e-12);
    }
    for (int i = 0; i < NX; i++) CHECK_CLOSE(dy[i], r == i ? 1.0 : 0.0, 0); /* += leaves the seed in place */
  }
  return check_done();
}
