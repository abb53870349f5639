// A constant pointer put into a local record with derivatives needs no shadow where the record's field is
// only read back for integers (tests/rev/constant_pointers_in_records.c), or only loaded from, as a view
// (tests/rev/record_of_views.c). Where the record is passed where that cannot be followed, reverse mode
// would add adjoints into the caller's constant memory itself: refused, in both modes, as before; and
// where the function that reads the record writes through the constant field.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

typedef struct {
  double *w;
  const double *scale;
  const int *idx;
} Terms;

__attribute__((noinline)) static double sum(const Terms *t, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += t->w[i] * t->scale[t->idx[i]];
  return s;
}

__attribute__((noinline)) static double sum_and_scale(const Terms *t, int n) {
  double s = sum(t, n);
  ((double *)t->scale)[0] = s; /* through the constant pointer */
  return s;
}

extern void record_somewhere(const Terms *t); /* not in the program: what it does is not known */

double scaled(double *w, const double *scale, const int *idx, int n) {
  // CHECK: constant_pointer_in_record.c:[[@LINE+1]]:{{[0-9]+}}: error: the pointer stored here into memory with derivatives needs a shadow for memory that has none: parameter 2 of 'scaled', passed as constant; pass it with parad_dup and a shadow in function 'scaled'
  Terms t = {w, scale, idx};
  return sum_and_scale(&t, n);
}

double escaping(double *w, const int *idx, int n) {
  // CHECK: constant_pointer_in_record.c:[[@LINE+1]]:{{[0-9]+}}: error: the pointer stored here into memory with derivatives needs a shadow for memory that has none: parameter 2 of 'escaping', passed as constant; pass it with parad_dup and a shadow in function 'escaping'
  Terms t = {w, 0, idx};
  record_somewhere(&t);
  return sum(&t, n);
}

int main(void) {
  double w[2] = {1, 2}, dw[2] = {0, 0}, scale[2] = {3, 4};
  int idx[2] = {1, 0};
  __parad_autodiff((void *)scaled, w, dw, parad_const, scale, parad_const, idx, 2);
  return (int)__parad_fwddiff((void *)escaping, w, dw, parad_const, idx, 2);
}
