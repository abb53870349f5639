// A switch whose cases share a target: the block after it has a phi with one entry per edge, the same
// pointer on two entries from the same block (found by the fuzzer). Vector forward mode built two tangents
// for the two entries, which LLVM rejects ("PHI node has multiple entries for the same basic block with
// different incoming values"). The width-2 tangent against the one computed by hand (tolerance 1e-12), at
// -O2 and -O0.
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include "check.h"

__attribute__((noinline)) static double pick(const double *a, const double *b, const double *c, const int *kind, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    const double *p;
    switch (kind[i]) {
    case 0:
    case 3: p = a; break;
    case 1: p = b; break;
    case 2:
    case 5: p = c + 1; break;
    default: p = c; break;
    }
    s += p[i % 2] * p[i % 2] * (i + 1);
  }
  return s;
}

typedef struct { double v[2]; } Pair;
Pair __parad_fwddiff_pair(void *, ...) __asm__("__parad_fwddiff");

int main(void) {
  double a[2] = {0.5, -1.5}, b[2] = {2.0, 0.25}, c[3] = {1.25, -0.75, 3.0};
  double da0[2] = {1, 0}, da1[2] = {0, 1}, db0[2] = {0}, db1[2] = {0}, dc0[3] = {0, 1, 0}, dc1[3] = {1, 0, 1};
  int kind[12] = {0, 1, 2, 3, 4, 5, 3, 2, 1, 0, 5, 4};
  Pair t = __parad_fwddiff_pair((void *)pick, parad_width, 2, a, da0, da1, b, db0, db1, c, dc0, dc1, parad_const, kind, 12);
  /* by hand: d/d(direction) of sum p[i%2]^2 (i+1) */
  double want[2] = {0, 0};
  for (int w = 0; w < 2; w++) {
    const double *da = w ? da1 : da0, *dc = w ? dc1 : dc0;
    for (int i = 0; i < 12; i++) {
      const double *p, *dp;
      switch (kind[i]) {
      case 0: case 3: p = a, dp = da; break;
      case 1: p = b, dp = w ? db1 : db0; break;
      case 2: case 5: p = c + 1, dp = dc + 1; break;
      default: p = c, dp = dc; break;
      }
      want[w] += 2 * p[i % 2] * dp[i % 2] * (i + 1);
    }
  }
  CHECK_CLOSE(t.v[0], want[0], 1e-12);
  CHECK_CLOSE(t.v[1], want[1], 1e-12);
  return check_done();
}
