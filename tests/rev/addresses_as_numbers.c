// Addresses of active memory used as numbers through helpers, as programs do: a pointer hashed to pick a
// bucket, two addresses' distance as an index, an address printed as an integer, a pointer kept in a
// uintptr_t and handed to a helper that never makes it a pointer again. None loses a derivative, and
// none may be refused now that such integers are followed through stack slots and calls: at -O0 (every
// variable in a slot) and with the helpers kept as calls. Checked against the analytic gradient and
// tangent (tolerance 1e-12).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc %cflags -DCALLS %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t && %t
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "parad.h"

#ifdef CALLS
#define HELPER __attribute__((noinline)) static
#else
#define HELPER static
#endif

HELPER unsigned bucket(uintptr_t key) { return (unsigned)((key >> 3) * 2654435761u) % 7u; }
HELPER long index_of(const double *base, uintptr_t at) { return (long)((at - (uintptr_t)base) / sizeof(double)); }
HELPER int aligned(uintptr_t a) { return (a & 7) == 0; }
HELPER uintptr_t kept(uintptr_t a) {
  uintptr_t slot[2] = {a, a >> 4};
  return slot[0] ^ (slot[1] & 0);
}

/* f = sum_i w_i x_i^2 + x_0 x_1, with w_i picked by each element's hashed address (fixed for one run) */
static double f(double *x, int n, const double *w) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    uintptr_t key = (uintptr_t)&x[i];
    long k = index_of(x, key);
    double xi = x[k];
    if (!aligned(kept(key))) return -1;
    s += w[bucket(key)] * xi * xi;
  }
  return s + x[0] * x[1];
}

int main(void) {
  enum { N = 5 };
  double x[N] = {0.5, -1.25, 2.0, 0.75, -0.3}, dx[N] = {0}, w[7] = {1, 2, 3, 4, 5, 6, 7};
  __parad_autodiff((void *)f, x, dx, N, parad_const, w);
  int bad = 0;
  double v[N] = {1, -2, 0.5, 3, 1.5}, t = 0;
  for (int i = 0; i < N; i++) {
    double want = 2 * w[bucket((uintptr_t)&x[i])] * x[i] + (i == 0 ? x[1] : i == 1 ? x[0] : 0);
    if (fabs(dx[i] - want) > 1e-12 * (1 + fabs(want))) printf("dx[%d] = %g, want %g\n", i, dx[i], want), bad = 1;
    t += want * v[i];
  }
  double dv[N];
  memcpy(dv, v, sizeof v);
  double tan = __parad_fwddiff((void *)f, x, dv, N, parad_const, w);
  if (fabs(tan - t) > 1e-12 * (1 + fabs(t))) printf("tangent %g, want %g\n", tan, t), bad = 1;
  if (!bad) printf("ok\n");
  return bad;
}
