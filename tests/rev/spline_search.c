// Binary search in a sorted knot array (comparisons of the active x drive integer control flow), then
// cubic Hermite evaluation on the found interval, in reverse mode: the adjoints of the knot positions,
// values and slopes land only on the two knots of the interval found. The gradient with respect to x
// against the analytic derivative of the Hermite basis (tolerance 1e-12); every gradient entry against
// the forward tangent along its unit direction (tolerance 1e-12) and against central finite differences
// (h = 1e-6, tolerance 1e-7), at points away from the knots.
// RUN: %parad-cc %cflags %s -o %t && %t
#include <math.h>
#include <string.h>
#include "check.h"

double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

enum { K = 11 };

__attribute__((noinline)) static int find(const double *t, int n, double x) {
  int lo = 0, hi = n - 1;
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
typedef struct { double x; int k; } Ctx; /* unit direction k in (t, y, m, x) */

static double along(void *p, double e) {
  Ctx *c = p;
  double t[K], y[K], m[K];
  memcpy(t, T, sizeof t), memcpy(y, Y, sizeof y), memcpy(m, M, sizeof m);
  if (c->k < K) t[c->k] += e;
  else if (c->k < 2 * K) y[c->k - K] += e;
  else if (c->k < 3 * K) m[c->k - 2 * K] += e;
  return hermite(t, y, m, K, c->x + (c->k == 3 * K) * e);
}

int main(void) {
  for (int i = 0; i < K; i++) T[i] = i * i * 0.1 + 0.3 * i, Y[i] = sin(T[i]), M[i] = cos(T[i]) * 0.9;
  for (double x = 0.05; x < T[K - 1] - 0.1; x += 0.37) {
    double dT[K] = {0}, dY[K] = {0}, dM[K] = {0};
    double dx = __parad_autodiff((void *)hermite, T, dT, Y, dY, M, dM, parad_const, K, x);
    int i = find(T, K, x);
    double h = T[i + 1] - T[i], s = (x - T[i]) / h;
    double want = ((6 * s * s - 6 * s) * Y[i] + (3 * s * s - 4 * s + 1) * h * M[i] + (-6 * s * s + 6 * s) * Y[i + 1] +
                   (3 * s * s - 2 * s) * h * M[i + 1]) / h;
    CHECK_CLOSE(dx, want, 1e-12);
    for (int k = 0; k <= 3 * K; k++) {
      double got = k < K ? dT[k] : k < 2 * K ? dY[k - K] : k < 3 * K ? dM[k - 2 * K] : dx;
      double et[K] = {0}, ey[K] = {0}, em[K] = {0};
      if (k < K) et[k] = 1;
      else if (k < 2 * K) ey[k - K] = 1;
      else if (k < 3 * K) em[k - 2 * K] = 1;
      CHECK_CLOSE(got, __parad_fwddiff((void *)hermite, T, et, Y, ey, M, em, parad_const, K, x, (double)(k == 3 * K)), 1e-12);
      Ctx c = {x, k};
      CHECK_CLOSE(got, fd_central(along, &c, 0, 1e-6), 1e-7);
      if (k < 3 * K && k % K != i && k % K != i + 1) CHECK_CLOSE(got, 0.0, 0); /* other knots: no adjoint */
    }
  }
  return check_done();
}
