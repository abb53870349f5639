// A triangle's loops with two counters: a packed lower-triangular factor L applied to x - mu, as the
// GMM objective does (z[j] += L[t++] * xc[i], t carried from row to row), over several components that
// overwrite the same local arrays, each ending in a join of branches. The inner loop's exit tests j;
// the reverse sweep takes t's last value from j's and both starts instead of recording it
// (reverse/rev_loops.c, sibling counters), and the joins' directions recorded at the latch are packed
// a byte each (rev_values.c, plan_pack_records). A second function runs both loops downwards (steps
// of -1). Gradients against tangents (1e-11) and central differences (h = 1e-5, 1e-6) at -O2, -O1 and
// -O0; at -O2, the tape per component (472 bytes before these two changes, 408 after).
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 -lm && %t1 0
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0 0
#include <math.h>
#include <stddef.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);
size_t parad_tape_recorded_bytes(void);
enum { D = 7, K = 5, NL = D * (D - 1) / 2, NX = K * D + K * NL + K * D };

/* x: K means (D each), K factors (NL each), K log-diagonals (D each); the point is fixed */
__attribute__((noinline)) static double upwards(const double *restrict x) {
  const double *mu = x, *lo = x + K * D, *q = x + K * D + K * NL;
  double xc[D], z[D], e = 0;
  for (int c = 0; c < K; c++) {
    for (int i = 0; i < D; i++) xc[i] = 0.3 * i - 0.1 * c - mu[c * D + i];
    for (int i = 0; i < D; i++) z[i] = exp(q[c * D + i]) * xc[i];
    int t = 0;
    for (int i = 0; i < D; i++)
      for (int j = i + 1; j < D; j++) z[j] += lo[c * NL + t++] * xc[i];
    double sq = 0;
    for (int i = 0; i < D; i++) sq += z[i] * z[i];
    if (sq > 1) /* joins: which way each went is recorded at the component's latch */
      e += log(sq);
    else
      e += sq - 1;
    e += sq > 0.5 ? sin(z[0]) : z[0] * z[0];
  }
  return e;
}

/* the same product with both loops counting down: row i from D - 1, column j from i - 1 to 0 */
__attribute__((noinline)) static double downwards(const double *restrict x) {
  const double *mu = x, *lo = x + K * D;
  double xc[D], z[D], e = 0;
  for (int c = 0; c < K; c++) {
    for (int i = 0; i < D; i++) z[i] = xc[i] = cos(0.2 * i + c) - mu[c * D + i];
    int t = NL - 1;
    for (int i = D - 1; i >= 0; i--)
      for (int j = i - 1; j >= 0; j--) z[j] += lo[c * NL + t--] * xc[i];
    for (int i = 0; i < D; i++) e += z[i] * z[i] * (1 + 0.1 * i);
  }
  return e;
}

static double f(const double *x) { return upwards(x) + 0.5 * downwards(x); }

int main(int argc, char **argv) {
  double x[NX];
  for (int i = 0; i < NX; i++) x[i] = 0.1 * sin(1.3 * i + 0.4) + (i % 3) * 0.05;
  CHECK_GRADIENT(f, x, NX, 1e-11, 1e-5, 1e-6);
  if (argc < 2) { /* at -O2: per component, the rows' records without the second counter, the joins' bytes packed */
    double d[NX] = {0};
    size_t before = parad_tape_recorded_bytes();
    __parad_autodiff((void *)upwards, x, d);
    double per = (double)(parad_tape_recorded_bytes() - before) / K;
    printf("tape per component: %.1f bytes\n", per);
    CHECK_CLOSE(per <= 420, 1, 0);
  }
  return check_done();
}
