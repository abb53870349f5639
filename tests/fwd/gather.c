// Indirect (gather) access through a constant index array: the tangent reads the shadow at the same
// indices. Analytic (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include "check.h"

double __parad_fwddiff(void *, ...);

__attribute__((noinline)) static double gather_dot(const double *x, const int *idx, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * x[idx[i]] * x[idx[(i + 1) % n]];
  return s;
}

int main(void) {
  double x[5] = {1, 2, 3, 4, 5}, w[4] = {0.5, 1, 1.5, 2};
  int idx[4] = {4, 0, 2, 0};
  for (int k = 0; k < 5; k++) {
    double dx[5] = {0};
    dx[k] = 1;
    double want = 0;
    for (int i = 0; i < 4; i++) {
      int a = idx[i], b = idx[(i + 1) % 4];
      want += w[i] * ((a == k) * x[b] + (b == k) * x[a]);
    }
    CHECK_CLOSE(__parad_fwddiff((void *)gather_dot, x, dx, parad_const, idx, parad_const, w, 4), want, 1e-12);
  }
  return check_done();
}
