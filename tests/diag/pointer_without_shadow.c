// Storing a pointer that has no shadow (here the address of a global array defined in a file Parad does not
// see) into memory that holds active
// data: a later access through the loaded pointer would have no shadow to use. Refused.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>

extern double table[4]; /* defined in a file Parad does not see */
typedef struct { double *data; double scale; } View;

__attribute__((noinline)) static double use(View *v, double x) {
  v->scale = x;
  // CHECK: pointer_without_shadow.c:[[@LINE+1]]:{{[0-9]+}}: error: the pointer stored here into memory with derivatives needs a shadow for memory that has none: the global variable 'table', which has no shadow: Parad gives one to a global of floats and integers that the file defines (not thread-local) in function 'use'
  v->data = table;
  return v->data[1] * v->scale;
}

int main(void) {
  View v, dv;
  return (int)__parad_fwddiff((void *)use, &v, &dv, 2.0, 1.0);
}
