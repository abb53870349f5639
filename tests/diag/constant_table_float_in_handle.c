// A constant table of operations stored into a handle by a constructor not inlined is the handle's
// shadow's own where every pointer read from that field is only called through or read for integers
// (tests/rev/constant_table_in_handle.c). Where the table also holds a float the caller reads, the
// derivative would add its adjoint into the table itself (read-only memory: the first version of the
// change crashed there): refused at -O2, no output written. (At -O0 the handle is a local of the
// caller's and the table's float is read as a view: tests/rev/record_of_views.c.)
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

typedef struct {
  double (*energy)(const double *w, int n);
  double coeff;
} Ops;
typedef struct {
  const Ops *ops;
  const double *w;
  int n;
} Handle;

static double quad(const double *w, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) e += w[i] * w[i];
  return e;
}
const Ops QUAD = {quad, 0.5};

__attribute__((noinline)) void handle_init(Handle *h, const Ops *ops, const double *w, int n) {
  // CHECK: constant_table_float_in_handle.c:[[@LINE+1]]:{{[0-9]+}}: error: the pointer stored here into memory with derivatives needs a shadow for memory that has none: parameter 2 of 'handle_init', which 'loss' gives parameter 2 of 'loss', passed as constant; pass it with parad_dup and a shadow in function 'handle_init'
  h->ops = ops, h->w = w, h->n = n;
}

double loss(const double *w, const Ops *ops, int n) {
  Handle h;
  handle_init(&h, ops, w, n);
  return h.ops->energy(h.w, h.n) * h.ops->coeff;
}

int main(void) {
  double w[3] = {1, 2, 3}, g[3] = {0};
  __parad_autodiff((void *)loss, w, g, parad_const, &QUAD, 3);
  return g[0] > 0 ? 0 : 1;
}
