// Adjoints that are zero on the path the program did not take: the reverse sweep skips the updates of
// memory they would make (a copy of the block, or of the few blocks after it, for the predecessors whose
// adjoints are zero). Taken as a structural zero, so a partial derivative that is infinite on that path does
// not turn the gradient into NaN (as the adjoint code of Tapenade, which has no such path, gives):
//   score:  sum_i w_i log(x_i) over log(x_i) > -2, with x_1 = 0 (log 0 = -inf: the term is left out, its
//           partial 1/x infinite): analytic gradient w_i / x_i or 0, to 1e-14 (was NaN at x_1);
//   pairs:  sum_{i != j, 0 < r < rc} (rc - r)^3 r^2 (1 + x_j / 10), r = |x_i - x_j|, two points coincide
//           (r = 0: sqrt's partial infinite, the pair left out; the term is flat there, so the derivative
//           is that of the others): against central finite differences (h = 1e-6, 1e-7), and at the
//           coinciding points against the same sum without that pair, analytic (1e-12);
//   cutoff: a Lennard-Jones sum with a cut-off, the shape the copies are for (most pairs beyond it),
//           against central finite differences (h = 1e-6, 1e-6 relative).
// At -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

void __parad_autodiff(void *, ...);

enum { N = 5, P = 7, L = 24 };
static const double W[N] = {1, 2, 3, 4, 5}, RC = 1.5;

__attribute__((noinline)) double score(const double *x) {
  double e = 0;
  for (int i = 0; i < N; i++) {
    double a = log(x[i]);
    if (a > -2) e += a * W[i];
  }
  return e;
}

__attribute__((noinline)) double pairs(const double *x) {
  double e = 0;
  for (int i = 0; i < P; i++)
    for (int j = 0; j < P; j++) {
      if (j == i) continue;
      double d = x[i] - x[j], r2 = d * d, r = sqrt(r2);
      if (r2 > 0 && r < RC) e += (RC - r) * (RC - r) * (RC - r) * r2 * (1 + 0.1 * x[j]);
    }
  return e;
}

/* the pairs' sum for 1-D points, the pair (a, b) left out */
static double pairs_without(const double *x, int a, int b) {
  double e = 0;
  for (int i = 0; i < P; i++)
    for (int j = 0; j < P; j++) {
      if (j == i || (i == a && j == b) || (i == b && j == a)) continue;
      double r = fabs(x[i] - x[j]);
      if (r < RC) e += (RC - r) * (RC - r) * (RC - r) * r * r * (1 + 0.1 * x[j]);
    }
  return e;
}

__attribute__((noinline)) double cutoff(const double *x) {
  double e = 0, rc2 = 2.5 * 2.5;
  for (int i = 0; i < L; i++)
    for (int j = 0; j < L; j++) {
      if (j == i) continue;
      double rx = x[3 * i] - x[3 * j], ry = x[3 * i + 1] - x[3 * j + 1], rz = x[3 * i + 2] - x[3 * j + 2];
      double r2 = rx * rx + ry * ry + rz * rz;
      if (r2 >= rc2) continue;
      double ir6 = 1 / (r2 * r2 * r2);
      e += 2 * (ir6 * ir6 - ir6);
    }
  return e;
}

int main(void) {
  double x[N] = {0.5, 0.0, 2.0, 1e-3, 3.0}, g[N] = {0};
  __parad_autodiff((void *)score, x, g);
  for (int i = 0; i < N; i++) CHECK_CLOSE(g[i], log(x[i]) > -2 ? W[i] / x[i] : 0, 1e-14);

  double y[P] = {0.1, 0.7, 1.3, 2.9, 0.7, 4.0, 2.2}, gy[P] = {0};
  __parad_autodiff((void *)pairs, y, gy);
  for (int i = 0; i < P; i++) {
    if (i == 1 || i == 4) { /* coinciding: the derivative of the sum without their pair */
      double h = 1e-6, s = y[i];
      y[i] = s + h;
      double up = pairs_without(y, 1, 4);
      y[i] = s - h;
      double down = pairs_without(y, 1, 4);
      y[i] = s;
      CHECK_CLOSE(gy[i], (up - down) / (2 * h), 1e-7);
    } else {
      CHECK_CLOSE(gy[i], fd_component(pairs, y, P, i, 1e-6), 1e-7);
    }
  }

  double z[3 * L], gz[3 * L] = {0};
  for (int i = 0; i < L; i++) /* a jittered 3 x 2 x 4 lattice of spacing 1.1: most pairs beyond 2.5 */
    z[3 * i] = 1.1 * (i % 3) + 0.05 * sin(i), z[3 * i + 1] = 1.1 * (i / 3 % 2) + 0.05 * cos(1.3 * i),
    z[3 * i + 2] = 1.1 * (i / 6) + 0.04 * sin(2.1 * i);
  __parad_autodiff((void *)cutoff, z, gz);
  for (int k = 0; k < 3 * L; k++) CHECK_CLOSE(gz[k], fd_component(cutoff, z, 3 * L, k, 1e-6), 1e-6);
  return check_done();
}
