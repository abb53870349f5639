// Binary search in a sorted knot array (float comparisons of the active x drive integer control flow),
// then cubic Hermite evaluation on the found interval with knot values and slopes read from memory.
// The derivative with respect to x is checked at points away from the knots against central finite
// differences (h = 1e-6, tolerance 1e-7) and against the analytic derivative of the Hermite basis
// (tolerance 1e-12); the tangent with respect to the knot values (a duplicated array) against finite
// differences too.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

enum { K = 11 };

__attribute__((noinline)) static int find(const double *t, int n, double x) {
  int lo = 0, hi = n - 1; /* invariant t[lo] <= x < t[hi] */
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (x < t[mid]) hi = mid;
    else lo = mid;
  }
  return lo;
}

__attribute__((noinline)) static double hermite(const double *t, const double *y, const double *m, int n, double x) {
  int i = find(t, n, x);
  double h = t[i + 1] - t[i], s = (x - t[i]) / h;
  double s2 = s * s, s3 = s2 * s;
  return (2 * s3 - 3 * s2 + 1) * y[i] + (s3 - 2 * s2 + s) * h * m[i] + (-2 * s3 + 3 * s2) * y[i + 1] +
         (s3 - s2) * h * m[i + 1];
}

static double T[K], Y[K], M[K];

static double at_x(void *ctx, double x) {
  (void)ctx;
  return hermite(T, Y, M, K, x);
}

static double along_y(void *ctx, double e) {
  double *x = ctx, y[K];
  for (int i = 0; i < K; i++) y[i] = Y[i] + e * cos(i);
  return hermite(T, y, M, K, *x);
}

int main(void) {
  for (int i = 0; i < K; i++) T[i] = i * i * 0.1 + 0.3 * i, Y[i] = sin(T[i]), M[i] = cos(T[i]) * 0.9;
  double dT[K] = {0}, dY[K] = {0}, dM[K] = {0};
  for (double x = 0.05; x < T[K - 1] - 0.1; x += 0.37) {
    double d = __parad_fwddiff((void *)hermite, T, dT, Y, dY, M, dM, parad_const, K, x, 1.0);
    int i = find(T, K, x);
    double h = T[i + 1] - T[i], s = (x - T[i]) / h;
    double want = ((6 * s * s - 6 * s) * Y[i] + (3 * s * s - 4 * s + 1) * h * M[i] + (-6 * s * s + 6 * s) * Y[i + 1] +
                   (3 * s * s - 2 * s) * h * M[i + 1]) / h;
    CHECK_CLOSE(d, want, 1e-12);
    CHECK_CLOSE(d, fd_central(at_x, 0, x, 1e-6), 1e-7);
    /* with respect to the knot values */
    double dy[K];
    for (int j = 0; j < K; j++) dy[j] = cos(j);
    double d2 = __parad_fwddiff((void *)hermite, T, dT, Y, dy, M, dM, parad_const, K, x, 0.0);
    CHECK_CLOSE(d2, fd_central(along_y, &x, 0, 1e-6), 1e-7);
  }
  return check_done();
}
