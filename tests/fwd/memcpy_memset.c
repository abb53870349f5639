// memcpy, memmove and memset on active memory: copies carry tangents along, memset (and copies of
// constant data) zero them. Analytic tangents (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <string.h>
#include "check.h"

double __parad_fwddiff(void *, ...);

static const double table[4] = {1, 2, 3, 4};

__attribute__((noinline)) static double shuffle(double *x, int n) {
  double tmp[16];
  memcpy(tmp, x, n * sizeof *x);             /* active copy */
  memmove(x + 1, x, (n - 1) * sizeof *x);    /* overlapping move within active memory */
  x[0] = tmp[n - 1];
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * tmp[i];
  memset(tmp, 0, sizeof tmp);                /* tangents of tmp become zero */
  memcpy(tmp + 4, table, sizeof table);      /* constant data: zero tangents */
  for (int i = 0; i < 8; i++) s += tmp[i] * x[i % n];
  return s;
}

int main(void) {
  enum { N = 6 };
  double x0[N] = {0.5, -1, 2, 0.25, 3, -0.5};
  for (int k = 0; k < N; k++) {
    double x[N], dx[N] = {0};
    memcpy(x, x0, sizeof x);
    dx[k] = 1;
    double d = __parad_fwddiff((void *)shuffle, x, dx, parad_const, N);
    /* s = sum_i x[(i-1) mod N] x[i] + sum_{j<4} table[j] x[(4+j) mod N] with the rotated array */
    double want = x0[(k + 1) % N] + x0[(k + N - 1) % N];
    for (int j = 0; j < 4; j++) {
      int idx = (4 + j) % N;            /* position in rotated array */
      int src = (idx + N - 1) % N;      /* which original element is there */
      if (src == k) want += table[j];
    }
    CHECK_CLOSE(d, want, 1e-12);
    /* the rotated array's tangent moved with it */
    CHECK_CLOSE(dx[(k + 1) % N], 1.0, 1e-15);
  }
  return check_done();
}
