// A tagged union holding either a double or a pointer to one (a value of an interpreter, a node of an
// expression tree), copied whole by struct assignment. Clang types the union as its first member only
// ({ double }), and the reverse sweep took every copied union for a double: the pointers' shadows were
// added as adjoints and cleared, and the gradient crashed on a shadow pointer that was not one (-O0 and
// -O2). What the union holds differs element by element at run time: refused. Forward mode, which moves
// the bytes whatever they are, is checked against the analytic tangent (exact: 212).
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -I%S/../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: %parad-cc %cflags -DFORWARD %s -o %t && %t
#include <stdio.h>
#include "parad.h"

typedef enum { NUM, REF } Tag;
typedef struct {
  Tag tag;
  union {
    double d;
    double *p;
  } u;
} Any;

__attribute__((noinline)) static void copy_any(Any *dst, const Any *src, int n) {
  for (int i = 0; i < n; i++)
    // CHECK: tagged_union_copy.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot tell what this copy moves (mixed data){{.*}} in function 'copy_any'
    dst[i] = src[i];
}

static double value(const Any *a) { return a->tag == NUM ? a->u.d : *a->u.p; }

/* sum_i (i + 1) value(a[n-1-i]), a[j] = v_j^2 for even j, a pointer to v_j for odd j */
static double f(double *v, int n) {
  Any a[6], b[6];
  for (int i = 0; i < n; i++) {
    if (i % 2) a[i].tag = REF, a[i].u.p = &v[i];
    else a[i].tag = NUM, a[i].u.d = v[i] * v[i];
  }
  copy_any(b, a, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * value(&b[n - 1 - i]);
  return s;
}

int main(void) {
  double v[6] = {1, 2, 3, 4, 5, 6}, dv[6] = {1, 2, 3, 4, 5, 6};
#ifdef FORWARD
  double t = __parad_fwddiff((void *)f, v, dv, 6);
  printf("tangent %g (212)\n", t);
  return t != 212;
#else
  double g[6] = {0};
  __parad_autodiff((void *)f, v, g, 6);
  return g[0] != 12;
#endif
}
