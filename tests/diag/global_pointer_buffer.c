// A workspace allocated once and kept in a global pointer (lazily, on the first call that needs it): the
// global holds a pointer, which gets no shadow (its shadow block would have to outlive the call, and be
// found for a buffer the program allocated outside any derivative). Refused where active data goes into
// the buffer, naming the global and what to do (the message said only "a pointer loaded from memory").
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t -lm 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <math.h>
#include <stdlib.h>

double __parad_autodiff(void *, ...);

static double *work;
static int nwork;

static double f(const double *x, int n) {
  if (nwork < n) {
    free(work);
    work = malloc(n * sizeof *work);
    nwork = n;
  }
  // CHECK: global_pointer_buffer.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot store an active value into memory without a shadow (a pointer loaded from the global variable 'work': Parad gives no shadow to a global holding pointers (a buffer allocated once and kept there); allocate it in the function or pass it as an argument with a shadow) in function 'f'
  for (int i = 0; i < n; i++) work[i] = sin(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++) s += work[i] * work[i];
  return s;
}

int main(void) {
  double x[8] = {0}, g[8] = {0};
  __parad_autodiff((void *)f, x, g, 8);
  return 0;
}
