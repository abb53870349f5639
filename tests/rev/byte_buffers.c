// Doubles and floats moved through buffers of bytes (`unsigned char buf[]`), as programs pack and shift
// data: no load or store of the program reads a buffer as typed values, only copies go in and out. What
// a buffer holds is then told by the other ends of its copies (a typed array), through a chain of buffers
// too. Each gradient against the analytic one (tolerance 1e-12), the tangents (1e-12) and central
// differences (h = 1e-6, tolerance 1e-7), at -O2 and -O0.
//  shifted: x copied in, 4 of its values moved 3 places up inside the buffer (memmove), copied out into
//           y: y_i = x_{s(i)}, s(i) = i - 3 for 3 <= i < 7, else i. f = sum_i (i + 1) y_i^2.
//  chained: x through two buffers, the second copy starting 2 values in: y_i = x_{i+2} (i < n - 2).
//           f = sum_i exp(0.3 y_i) y_i.
//  floats:  as shifted, with floats (the buffer's copies then move 4-byte floats), the result a double:
//           against the analytic gradient only, to a float's precision (1e-6).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -Wall -I%S/../include %s -o %t0 && %t0
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { N = 9 };

static int shifted_source(int i) { return i >= 3 && i < 7 ? i - 3 : i; }

static double shifted(const double *x) {
  unsigned char buf[2 * N * sizeof(double)];
  memcpy(buf, x, N * sizeof(double));
  memmove(buf + 3 * sizeof(double), buf, 4 * sizeof(double));
  double y[N];
  memcpy(y, buf, sizeof y);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * y[i] * y[i];
  return s;
}

static double chained(const double *x) {
  unsigned char a[N * sizeof(double)], b[N * sizeof(double)];
  memcpy(a, x, sizeof a);
  memcpy(b, a + 2 * sizeof(double), (N - 2) * sizeof(double));
  double y[N - 2];
  memcpy(y, b, sizeof y);
  double s = 0;
  for (int i = 0; i < N - 2; i++) s += exp(0.3 * y[i]) * y[i];
  return s;
}

static double floats(const double *x) {
  float in[N], y[N];
  for (int i = 0; i < N; i++) in[i] = (float)x[i];
  unsigned char buf[2 * N * sizeof(float)];
  memcpy(buf, in, sizeof in);
  memmove(buf + 3 * sizeof(float), buf, 4 * sizeof(float));
  memcpy(y, buf, sizeof y);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * (double)y[i] * (double)y[i];
  return s;
}

int main(void) {
  double x[N], g[N], want[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.05 * i - 0.011 * i * i;

  memset(g, 0, sizeof g), memset(want, 0, sizeof want);
  __parad_autodiff((void *)shifted, x, g);
  for (int i = 0; i < N; i++) want[shifted_source(i)] += 2 * (i + 1) * x[shifted_source(i)];
  for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], want[j], 1e-12);
  CHECK_GRADIENT(shifted, x, N, 1e-12, 1e-6, 1e-7);

  memset(g, 0, sizeof g), memset(want, 0, sizeof want);
  __parad_autodiff((void *)chained, x, g);
  for (int i = 0; i < N - 2; i++) want[i + 2] = exp(0.3 * x[i + 2]) * (1 + 0.3 * x[i + 2]);
  for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], want[j], 1e-12);
  CHECK_GRADIENT(chained, x, N, 1e-12, 1e-6, 1e-7);

  /* the analytic gradient at the rounded inputs; the adjoints of floats are floats: 1e-6 */
  memset(g, 0, sizeof g), memset(want, 0, sizeof want);
  __parad_autodiff((void *)floats, x, g);
  for (int i = 0; i < N; i++) want[shifted_source(i)] += 2 * (i + 1) * (double)(float)x[shifted_source(i)];
  for (int j = 0; j < N; j++) CHECK_CLOSE(g[j], want[j], 1e-6);
  return check_done();
}
