// A loop whose conditional block reuses what the block before it recorded (the pairs' coordinates): the
// conditional block's record follows its predecessor's on the tape, and reads the predecessor's fields,
// over enough iterations that records fill several tape chunks (the first holds 64 KiB), with the
// condition true and false in irregular runs. Gradient of
//   f(x) = sum_k [d_k^2 < 1] (1 / (1 + d_k^2) + d_k^3 + [d_k^2 < 1/4] d_k^4),  d_k = x[a_k] - x[b_k],
// against the analytic gradient (relative 1e-12) and central finite differences (h = 1e-4, relative 1e-5:
// about 240 pairs share each coordinate).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <stdlib.h>
#include "check.h"

void __parad_autodiff(void *, ...);

enum { N = 500, PAIRS = 60000 };

/* writes each pair's term into t as well: t might be x, so the reverse sweep cannot read x again and
 * the coordinates are recorded */
static double f(const double *x, const int *a, const int *b, int pairs, double *t) {
  double s = 0;
  for (int k = 0; k < pairs; k++) {
    double d = x[a[k]] - x[b[k]], d2 = d * d;
    t[k] = 0;
    if (d2 >= 1) continue;
    t[k] = 1 / (1 + d2) + d2 * d;
    if (d2 < 0.25) t[k] += d2 * d2; /* a block entered only from the one before, itself a follower */
    s += t[k];
  }
  return s;
}

int main(void) {
  static double x[N], dx[N], g[N];
  static int a[PAIRS], b[PAIRS];
  static double t[PAIRS], dt[PAIRS]; /* dt: zero, the terms are not part of the output */
  srand(3);
  for (int i = 0; i < N; i++) x[i] = 3.0 * rand() / RAND_MAX;
  for (int k = 0; k < PAIRS; k++) a[k] = rand() % N, b[k] = rand() % N;
  __parad_autodiff((void *)f, x, dx, parad_const, a, parad_const, b, parad_const, PAIRS, t, dt);
  int inside = 0;
  for (int k = 0; k < PAIRS; k++) {
    double d = x[a[k]] - x[b[k]], d2 = d * d;
    if (d2 >= 1) continue;
    inside++;
    double dd = -2 * d / ((1 + d2) * (1 + d2)) + 3 * d2 + (d2 < 0.25 ? 4 * d2 * d : 0);
    g[a[k]] += dd, g[b[k]] -= dd;
  }
  CHECK_CLOSE(inside > PAIRS / 4 && inside < PAIRS * 3 / 4, 1, 0); /* both sides of the branch taken often */
  for (int i = 0; i < N; i++) CHECK_CLOSE(dx[i], g[i], 1e-12);
  for (int i = 0; i < N; i += 37) {
    double save = x[i], h = 1e-4;
    x[i] = save + h;
    double up = f(x, a, b, PAIRS, t);
    x[i] = save - h;
    double down = f(x, a, b, PAIRS, t);
    x[i] = save;
    CHECK_CLOSE(dx[i], (up - down) / (2 * h), 1e-5);
  }
  return check_done();
}
