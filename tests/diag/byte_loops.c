// Byte loops that reverse mode still refuses, at their lines, with a hint: a loop that does nothing but
// copy or swap bytes in order moves whole blocks (tests/rev/byte_loops.c), but one that reverses a
// double's bytes (a change of byte order) is no such move, nor is a copy that also sums the bytes it moves.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc %cflags -DSUMMED %s -o %t 2>&1 | FileCheck --check-prefix=SUMMED %s
// RUN: test ! -e %t
#include <stddef.h>
double __parad_autodiff(void *, ...);

static unsigned sum;

#ifndef SUMMED
static void copy_bytes(void *to, const void *from, size_t n) {
  unsigned char *d = to;
  const unsigned char *s = from;
  // CHECK: byte_loops.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate a part of a float's bits moved as a smaller integer (a byte at a time: a loop that does nothing but copy or swap bytes in order moves whole blocks; or copy with memcpy) in function 'copy_bytes'
  for (size_t i = 0; i < n; i++) d[i] = s[n - 1 - i];
}
#else
__attribute__((noinline)) static void copy_bytes(void *to, const void *from, size_t n) {
  unsigned char *d = to;
  const unsigned char *s = from;
  for (size_t i = 0; i < n; i++) {
    // SUMMED: byte_loops.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate a part of a float's bits moved as a smaller integer
    d[i] = s[i];
    sum += s[i];
  }
}
#endif

static double square_copy(const double *x) {
  double y;
  copy_bytes(&y, x, sizeof y);
  return y * y;
}

int main(void) {
  double x = 3, g = 0;
  __parad_autodiff((void *)square_copy, &x, &g);
  return g != 6 || sum == 1;
}
