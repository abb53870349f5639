// Reverse mode needs to know what a copy moves: floats (their adjoints go back) or pointers (their
// shadows come along). A struct of a pointer and doubles copied through a byte buffer mixes both.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <string.h>
#include <parad.h>
double __parad_autodiff(void *, ...);

typedef struct { double *data; double scale, offset; } View;

__attribute__((noinline)) static double f(View *v, View *w) {
  // CHECK: rev_untyped_copy.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot tell what this copy moves (mixed data): copy typed values instead, or the fields of a struct one by one in function 'f'
  memcpy(w, v, sizeof *v);
  return w->data[0] * w->scale + w->offset;
}

int main(void) {
  double d[1] = {2}, dd[1] = {0};
  View v = {d, 3, 1}, dv = {dd, 0, 0}, w, dw;
  return (int)__parad_autodiff((void *)f, &v, &dv, &w, &dw);
}
