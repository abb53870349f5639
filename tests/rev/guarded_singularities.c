// A guard the optimiser turns into a select computes both sides: the side not taken divides by zero
// (r2 > 0 ? 1/r2 : 0 over pairs that include the self pair; a van Leer limiter's 2ab/(a+b) where a field
// is flat), takes log(0), or meets hypot and atan2 at the origin. Its adjoint is zero, and zero times an
// infinite partial was NaN: the whole gradient was NaN with no message (forward mode was right). The
// reverse sweep carries a zero adjoint through a partial that may be infinite as zero; hypot and atan2
// take 0 at the origin, a subgradient, in both modes. Against analytic gradients (1e-12), forward mode's
// tangents (1e-12) and central differences away from the kinks (1e-6), at -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_fwddiff(void *, ...);
void __parad_autodiff(void *, ...);

enum { N = 4 };

/* e = sum over pairs i != j of 1/(xi - xj)^2, the self pair skipped by its guard */
double inverse_ternary(const double *x) {
  double e = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double d = x[i] - x[j], r2 = d * d;
      e += r2 > 0 ? 1.0 / r2 : 0.0;
    }
  return e;
}

double inverse_if(const double *x) {
  double e = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double d = x[i] - x[j], r2 = d * d;
      if (r2 > 0) e += 1.0 / r2;
    }
  return e;
}

static double van_leer(double a, double b) { return a * b > 0 ? 2 * a * b / (a + b) : 0.0; }

/* a MUSCL-like sum over a field with a flat part (x0 = x1 = x2 in the test) */
double limited(const double *u) {
  double s = 0;
  for (int i = 1; i < N - 1; i++) s += u[i] * u[i] + van_leer(u[i] - u[i - 1], u[i + 1] - u[i]) * u[i];
  return s;
}

/* r^2 (1 - r) with r = hypot(x0 - x1, x2 - x3), and an angle's square weighted by r, at a self pair */
double at_origin(const double *x) {
  double u = x[0] - x[1], v = x[2] - x[3], r = hypot(u, v);
  return r * r * (1 - r) + r * atan2(v, u) * atan2(v, u) + atan2(v, u) * 0;
}

/* entropy-like terms: p log p, 0 for p = 0 (x1 = 0 in the test) */
double entropy(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++) {
    double p = x[i] * x[i];
    s += p > 0 ? p * log(p) * x[(i + 1) % N] : 0;
  }
  return s;
}

#define CHECK_ALL(f, x, want, fd)                                                                  \
  do {                                                                                             \
    double g[N] = {0};                                                                             \
    __parad_autodiff((void *)f, x, g);                                                             \
    for (int j = 0; j < N; j++) {                                                                  \
      double v[N] = {j == 0, j == 1, j == 2, j == 3};                                              \
      CHECK_CLOSE(g[j], want[j], 1e-12);                                                           \
      CHECK_CLOSE(__parad_fwddiff((void *)f, x, v), want[j], 1e-12);                               \
      if (fd) CHECK_CLOSE(fd_component(f, x, N, j, 1e-6), want[j], 1e-6);                          \
    }                                                                                              \
  } while (0)

int main(void) {
  double x[N] = {0, 1, 3, 4.5}, inv[N];
  for (int i = 0; i < N; i++) { /* d/dxi of 2 sum_{j != i} (xi - xj)^-2 */
    inv[i] = 0;
    for (int j = 0; j < N; j++)
      if (j != i) inv[i] += -4 / pow(x[i] - x[j], 3);
  }
  CHECK_ALL(inverse_ternary, x, inv, 1);
  CHECK_ALL(inverse_if, x, inv, 1);

  /* u = {1, 1, 1, 2}: both slopes' products are 0, the limiter's flat side is taken: s = u1^2 + u2^2 */
  double u[N] = {1, 1, 1, 2}, lim[N] = {0, 2 * u[1], 2 * u[2], 0};
  CHECK_ALL(limited, u, lim, 0);

  double y[N] = {0.3, 0.3, 0.7, 0.7}, zero[N] = {0, 0, 0, 0};
  CHECK_ALL(at_origin, y, zero, 0);

  double p[N] = {0.8, 0, -0.6, 1.3}, ent[N];
  for (int i = 0; i < N; i++) {
    int prev = (i + N - 1) % N;
    double pi = p[i] * p[i], pp = p[prev] * p[prev];
    ent[i] = (pi > 0 ? (log(pi) + 1) * 2 * p[i] * p[(i + 1) % N] : 0) + (pp > 0 ? pp * log(pp) : 0);
  }
  CHECK_ALL(entropy, p, ent, 0);
  return check_done();
}
