// Reverse mode needs to know what a copy moves: floats (their adjoints go back) or pointers (their
// shadows come along). Here nothing tells: a helper copies between two `void *` blocks that no code of the
// program ever reads or writes as typed data, neither the helper nor its caller.
// RUN: rm -f %t && not %parad-cc %cflags %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <stdlib.h>
#include <string.h>
#include <parad.h>

__attribute__((noinline)) static void copy(void *dst, const void *src, size_t n) {
  // CHECK: rev_untyped_copy.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot tell what this copy moves (unknown data): copy typed values instead, or the fields of a struct one by one in function 'copy'
  memcpy(dst, src, n);
}

int main(void) {
  void *a = malloc(24), *da = calloc(1, 24), *b = malloc(24), *db = calloc(1, 24);
  __parad_autodiff((void *)copy, a, da, b, db, (size_t)24);
  return 0;
}
