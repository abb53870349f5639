// A pointer to active memory tagged in its low bits by one function and untagged by another, the way
// tagged-pointer containers write it: the rebuilt pointer has no shadow. Refused where it is rebuilt, in
// both modes, whether the helpers are inlined (-O2), kept as calls (noinline: as if in another file) or
// left as compiled with every variable in a stack slot (-O0). Before, -O0 and the calls gave derivatives
// of zero with no message; only the inlined form was refused.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc %cflags -DCALLS %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -I%S/../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -I%S/../include -DFORWARD %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -I%S/../include -DONE_FUNCTION %s -o %t 2>&1 | FileCheck --check-prefix=ONE %s
// RUN: test ! -e %t
#include <stdint.h>
#include "parad.h"

#ifdef CALLS
#define HELPER __attribute__((noinline)) static
#else
#define HELPER static
#endif

HELPER uintptr_t tag(double *p, int t) { return (uintptr_t)p | (uintptr_t)t; }
HELPER int tag_of(uintptr_t v) { return (int)(v & 7); }
// CHECK: address_through_helpers.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a pointer rebuilt from the integer address of active memory (inttoptr): its shadow is lost in function 'untag'
HELPER double *untag(uintptr_t v) { return (double *)(v & ~(uintptr_t)7); }

static double f(double *x) {
#ifdef ONE_FUNCTION
  uintptr_t t = (uintptr_t)x | 1;
  // ONE: address_through_helpers.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a pointer rebuilt from the integer address of active memory (inttoptr): its shadow is lost in function 'f'
  double *p = (double *)(t & ~(uintptr_t)7);
#else
  uintptr_t t = tag(x, 1);
  double *p = untag(t);
#endif
  return p[0] * p[0] + 3 * p[1] + tag_of(t);
}

int main(void) {
  double x[2] = {2, 5}, dx[2] = {0, 0}, v[2] = {1, 1};
#ifdef FORWARD
  return __parad_fwddiff((void *)f, x, v) != 7;
#else
  __parad_autodiff((void *)f, x, dx);
  return dx[0] != 4 || dx[1] != 3 || v[0] != 1;
#endif
}
