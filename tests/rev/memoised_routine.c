// A routine that keeps its result for the last input (Gauss-Legendre weights for the last interval, a
// factorisation for the last matrix): `if (b != last) { w = sin(b); last = b; } return w;`. A derivative at
// the point of the previous plain call took the cached path, whose value carries no derivative: the
// gradient and the tangent were 0 where 2 cos(2 x) is right, silently. The cache's key (a float only
// compared for equality, and given the number it is compared with) is made NaN at a derivative's entry,
// so the derivative recomputes what the cache holds; within one derivative the cache works (a second
// call at the same point reads the value and the derivative the first call left). After the derivative the
// key is the point's, as the program's own call leaves it.
//   f(x) = weight(2 x0) + weight(2 x0) x1, weight(b) = sin(b): df/dx0 = 2 cos(2 x0)(1 + x1), df/dx1 = sin(2 x0)
// Against the analytic derivatives (1e-12), reverse and forward, after a plain call and twice in a row;
// -O2 and -O0.
// The key as a field of a global struct, as f2c writes a COMMON block (`COMMON /WCOM/ WTS(8), XS(8),
// ALAST`: abscissae and weights for the last scale, the arrays indexed by the loop's counter), and as an
// element of a global array: the derivative was 0 (against -0.385..., silently), as only whole globals were
// taken for keys. Checked the same way (1e-12, and the key left as the program's call leaves it). And a
// float that is compared and set like a key but also written by a loop over its array (`ring[i]` for
// every i, the last element the "key"): not a key, left as it is (the function's value and gradient
// against the analytic ones: resetting it would give NaN).
//   q(a, b) = sum_k w_k cos(b x_k), x_k = k / (2 a), w_k = exp(-x_k) / a
// RUN: %parad-cc %cflags %s -o %t -lm && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 -lm && %t0
#include <math.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double last = -1e300, cached;
static int computed;

static double weight(double b) {
  if (b != last) {
    cached = sin(b);
    last = b;
    computed++;
  }
  return cached;
}

static double f(const double *x) { return weight(2 * x[0]) + weight(2 * x[0]) * x[1]; }

struct {
  double wts[8], xs[8], alast;
} wcom_;

static void setwts(const double *alpha) {
  if (*alpha == wcom_.alast) return;
  for (int k = 1; k <= 8; ++k) {
    wcom_.xs[k - 1] = k * .5 / *alpha;
    wcom_.wts[k - 1] = exp(-wcom_.xs[k - 1]) / *alpha;
  }
  wcom_.alast = *alpha;
}

static double quadr(const double *ab) {
  double s = 0;
  setwts(&ab[0]);
  for (int k = 1; k <= 8; ++k) s += wcom_.wts[k - 1] * cos(ab[1] * wcom_.xs[k - 1]);
  return s;
}

/* dq/da and dq/db */
static void quadr_derivatives(const double *ab, double *d) {
  d[0] = d[1] = 0;
  for (int k = 1; k <= 8; ++k) {
    double x = k * .5 / ab[0], w = exp(-x) / ab[0], dx = -x / ab[0], dw = -w * dx - w / ab[0];
    d[0] += dw * cos(ab[1] * x) - w * sin(ab[1] * x) * ab[1] * dx;
    d[1] += -w * sin(ab[1] * x) * x;
  }
}

double keys[4], values[4];

static double scaled(const double *x) {
  if (x[0] != keys[2]) values[2] = exp(x[0]), keys[2] = x[0];
  return values[2] * x[1];
}

double ring[5];

static double ringed(const double *x) {
  if (x[0] != ring[4]) {
    for (int i = 0; i < 5; i++) ring[i] = x[0] + i;
  }
  return ring[4] * x[0];
}

int main(void) {
  double x[2] = {1.0, 0.5};
  double d0 = 2 * cos(2 * x[0]) * (1 + x[1]), d1 = sin(2 * x[0]);
  for (int round = 0; round < 2; round++) {
    CHECK_CLOSE(f(x), sin(2 * x[0]) * (1 + x[1]), 1e-15); /* fills the cache */
    double g[2] = {0};
    __parad_autodiff((void *)f, x, g);
    CHECK_CLOSE(g[0], d0, 1e-12);
    CHECK_CLOSE(g[1], d1, 1e-12);
    double v0[2] = {1, 0}, v1[2] = {0, 1};
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v0), d0, 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v1), d1, 1e-12);
    CHECK_CLOSE(last, 2 * x[0], 0); /* the key as the program's call leaves it */
  }
  int before = computed;
  CHECK_CLOSE(f(x), sin(2 * x[0]) * (1 + x[1]), 1e-15);
  CHECK_CLOSE((double)(computed - before), 0, 0); /* the program's calls still hit */

  double ab[2] = {1.3, 0.7}, want[2];
  quadr_derivatives(ab, want);
  for (int round = 0; round < 2; round++) {
    quadr(ab); /* fills the COMMON block's cache */
    double g[2] = {0}, e0[2] = {1, 0};
    __parad_autodiff((void *)quadr, ab, g);
    CHECK_CLOSE(g[0], want[0], 1e-12);
    CHECK_CLOSE(g[1], want[1], 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)quadr, ab, e0), want[0], 1e-12);
    CHECK_CLOSE(wcom_.alast, ab[0], 0);
  }
  double y[2] = {0.3, 2.0};
  scaled(y);
  double gy[2] = {0};
  __parad_autodiff((void *)scaled, y, gy);
  CHECK_CLOSE(gy[0], exp(y[0]) * y[1], 1e-12);
  CHECK_CLOSE(gy[1], exp(y[0]), 1e-12);
  CHECK_CLOSE(keys[2], y[0], 0);
  double z[1] = {0.4}, gz[1] = {0};
  ringed(z);
  __parad_autodiff((void *)ringed, z, gz);
  CHECK_CLOSE(ring[4], z[0] + 4, 0);
  CHECK_CLOSE(ringed(z), (z[0] + 4) * z[0], 1e-15);
  return check_done();
}
