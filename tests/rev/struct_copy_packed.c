// A struct {int n; float v;} whose float field is active, copied through a char buffer with memcpy, in
// reverse mode: at -O2 LLVM packs the two fields into one i64 (the float's bits shifted next to the int)
// and stores that; the adjoint of v must come back through the shifts and masks and the int must get none.
// Analytic gradients (tolerance 1e-6, float rounding) and forward tangents along each unit direction
// (tolerance 1e-6).
// RUN: %parad-cc %cflags %s -o %t && %t
// RUN: %parad-cc -O0 -I%S/../include %s -o %t0 && %t0
#include <string.h>
#include "check.h"

float __parad_autodiff_f(void *, ...);
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
  Pair p = {3, 1.5f}, dp = {0, 0}, q, dq = {0, 2.0f};
  float dx = __parad_autodiff_f((void *)scale_copy, &p, &dp, &q, &dq, 2.0f);
  CHECK_CLOSE(q.n, 3, 0);
  CHECK_CLOSE(q.v, 3.0, 1e-6);
  CHECK_CLOSE(dp.v, 2.0 * 2.0, 1e-6);
  CHECK_CLOSE(dx, 2.0 * 1.5, 1e-6);
  CHECK_CLOSE(dp.n, 0, 0);
  Pair e1 = {0, 1}, e0 = {0, 0}, q2, dq2;
  __parad_fwddiff((void *)scale_copy, &p, &e1, &q2, &dq2, 2.0f, 0.0f);
  CHECK_CLOSE(dp.v, 2.0 * dq2.v, 1e-6);
  __parad_fwddiff((void *)scale_copy, &p, &e0, &q2, &dq2, 2.0f, 1.0f);
  CHECK_CLOSE(dx, 2.0 * dq2.v, 1e-6);
  return check_done();
}
