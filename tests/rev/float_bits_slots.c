// Doubles kept as their bits in integer slots, as NaN-boxing interpreters and open-addressing tables keep
// them: copied in with memcpy, each slot compared with an empty marker before its bits are read back as a
// double. The optimiser reads the slot once for both, an integer load whose type tag says "long", and
// that load was taken for a true integer: a derivative of zero in both modes, at every level, no message.
// An integer variable the function stores or copies floats' bits into now holds floats for its loads.
// f = sum_i x_i^2 over the slots not empty, plus the bits stored through a slot of an int array by a
// plain assignment (y = x_0 x_1, its bits stored as uint64_t, read back the same way).
// Gradient against the analytic one (1e-12) and forward tangents along each unit direction (1e-12), at
// -O2, -O1 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O1 -I%S/../include %s -o %t1 && %t1
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <stdint.h>
#include <string.h>
#include "parad.h"
#include "check.h"

enum { N = 5 };
#define EMPTY 0x7ffc000000000000ull

static uint64_t bits_of(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

static double f(const double *x, int n) {
  uint64_t slot[8], other[2];
  for (int i = 0; i < n; i++) memcpy(&slot[i], &x[i], sizeof(double));
  slot[n] = EMPTY;
  double s = 0;
  for (int i = 0; i <= n; i++) {
    uint64_t v = slot[i];
    if (v != EMPTY) {
      double d;
      memcpy(&d, &v, sizeof d);
      s += d * d;
    }
  }
  other[0] = bits_of(x[0] * x[1]);
  if (other[0] != EMPTY) {
    double y;
    memcpy(&y, &other[0], sizeof y);
    s += y;
  }
  return s;
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.7, 2.1, -0.4}, dx[N] = {0};
  __parad_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i++) {
    double want = 2 * x[i] + (i == 0 ? x[1] : i == 1 ? x[0] : 0), v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(dx[i], want, 1e-12);
    CHECK_CLOSE(__parad_fwddiff((void *)f, x, v, N), want, 1e-12);
  }
  return check_done();
}
