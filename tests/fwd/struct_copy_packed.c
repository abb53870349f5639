// A struct {int n; float v;} whose float field is active, copied through a char buffer with memcpy: at
// -O2 LLVM packs the two fields into one i64 (bitcast float to i32, zext, shl 32, or with the int) and
// stores that. Shifts by whole bytes, byte masks and disjoint ors move the tangent bits the same way.
// Analytic (tolerance 1e-6).
// RUN: %parad-cc %cflags %s -o %t && %t
#include <string.h>
#include "check.h"

void __parad_fwddiff(void *, ...);

typedef struct { int n; float v; } Pair;

__attribute__((noinline)) static void scale_copy(const Pair *in, Pair *out, float x) {
  Pair t = *in;
  t.v *= x;
  char buf[sizeof t];
  memcpy(buf, &t, sizeof t);
  memcpy(out, buf, sizeof t);
}

int main(void) {
  Pair p = {3, 1.5f}, dp = {0, 0.5f}, q, dq = {0, 0};
  __parad_fwddiff((void *)scale_copy, &p, &dp, &q, &dq, 2.0f, 1.0f);
  CHECK_CLOSE(q.n, 3, 0);
  CHECK_CLOSE(q.v, 3.0, 1e-6);
  CHECK_CLOSE(dq.v, 0.5 * 2 + 1.5 * 1, 1e-6);
  return check_done();
}
