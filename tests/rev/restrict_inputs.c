// Inputs declared restrict and never written by the call are read again in the reverse sweep instead of
// recorded, though the function writes other memory (an output array): y = A x row by row with
// y_i = (A x)_i^2 and f = sum y. Also functions where that must not happen: a restrict input that the
// function overwrites after reading it (its old values are needed), one a callee overwrites, and one
// that is not restrict (an output may overlap it: C's const promises nothing). Gradients against the
// analytic one (tolerance 1e-12); the tape of the restrict product holds no element of A (its peak stays
// under 64 bytes per row, where recording A takes 8 n per row), the others stay right. At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stddef.h>
#include "check.h"

double __parad_autodiff(void *, ...);
size_t parad_tape_peak_bytes(void);
void parad_tape_reset_peak(void);
enum { N = 256 };

__attribute__((noinline)) static double squares(int n, const double *restrict A, const double *restrict x, double *restrict y) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double t = 0;
    for (int j = 0; j < n; j++) t += A[i * n + j] * x[j];
    y[i] = t * t;
    s += y[i];
  }
  return s;
}

/* reads x, then overwrites it: the reverse sweep needs the old values */
__attribute__((noinline)) static double overwritten(int n, double *restrict x, double *restrict y) {
  double s = 0;
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
  for (int i = 0; i < n; i++) x[i] = 0.5 * y[i];
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

__attribute__((noinline)) static void halve(int n, double *v) {
  for (int i = 0; i < n; i++) v[i] *= 0.5;
}

/* reads x, then a callee overwrites it */
__attribute__((noinline)) static double callee_writes(int n, double *restrict x, double *restrict y) {
  double s = 0;
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
  halve(n, x);
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

/* not restrict: y may be x itself, as it is here */
__attribute__((noinline)) static double may_overlap(int n, const double *x, double *y) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = x[i];
    y[i] = v * v; /* when y is x, the next read of x[i] sees this */
    s += v * x[i];
  }
  return s;
}

int main(void) {
  static double A[N * N], dA[N * N], x[N], dx[N], y[N], dy[N];
  for (int i = 0; i < N * N; i++) A[i] = 0.01 * (i % 17) - 0.05;
  for (int i = 0; i < N; i++) x[i] = 1 + 0.02 * i;
  parad_tape_reset_peak();
  __parad_autodiff((void *)squares, N, A, dA, x, dx, y, dy);
  size_t peak = parad_tape_peak_bytes();
  for (int i = 0; i < N; i++) {
    double t = 0;
    for (int j = 0; j < N; j++) t += A[i * N + j] * x[j];
    for (int j = 0; j < N; j++) CHECK_CLOSE(dA[i * N + j], 2 * t * x[j], 1e-12);
  }
  for (int j = 0; j < N; j++) {
    double g = 0;
    for (int i = 0; i < N; i++) {
      double t = 0;
      for (int k = 0; k < N; k++) t += A[i * N + k] * x[k];
      g += 2 * t * A[i * N + j];
    }
    CHECK_CLOSE(dx[j], g, 1e-12);
  }
#ifdef __OPTIMIZE__
  if (peak > 64 * N + 65536) printf("FAIL: the tape peaked at %zu bytes (A recorded?)\n", peak), check_failures++;
#endif
  (void)peak;

  /* overwritten: s = sum 0.5 x^2 x^2: ds/dx = 2 x^3 */
  for (int i = 0; i < N; i++) x[i] = 1 + 0.02 * i, dx[i] = 0, dy[i] = 0;
  double x0[N];
  for (int i = 0; i < N; i++) x0[i] = x[i];
  __parad_autodiff((void *)overwritten, N, x, dx, y, dy);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], 2 * x0[i] * x0[i] * x0[i], 1e-12);

  for (int i = 0; i < N; i++) x[i] = x0[i], dx[i] = 0, dy[i] = 0;
  __parad_autodiff((void *)callee_writes, N, x, dx, y, dy); /* s = sum 0.5 x^3 */
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], 1.5 * x0[i] * x0[i], 1e-12);

  /* y = x: s = sum x_i * x_i^2 after the store: ds/dx_i = 3 x_i^2 */
  for (int i = 0; i < N; i++) x[i] = x0[i], dx[i] = 0;
  __parad_autodiff((void *)may_overlap, N, x, dx, x, dx);
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], 3 * x0[i] * x0[i], 1e-12);
  return check_done();
}
