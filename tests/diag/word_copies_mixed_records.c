// Records of a double and an int swapped as 8-byte words by a helper: one word holds the double, the
// next the int and its padding, and the loop's index says which only at run time. Reverse mode cannot
// tell which words carry floats, and refuses the swap's stores with the place and the function, leaving
// no output file. Before, the words were taken for integers and the gradient was zero with no message:
// under -fno-strict-aliasing, and without it (undefined behaviour by C's aliasing rule, but built as
// written by every compiler), where the words' type tags say `long` and the records hold no `long`
// (docs/design.md, "Words over records of floats and integers"). Records of doubles only are
// differentiated (tests/rev/word_copies_loose_aliasing.c); at -O0 the swap of two locals is too.
// RUN: rm -f %t && not %parad-cc %cflags -fno-strict-aliasing %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: rm -f %t && not %parad-cc -O2 -I%S/../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: rm -f %t && not %parad-cc -O1 -I%S/../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// CHECK: word_copies_mixed_records.c:[[@LINE+7]]:10: error: reverse mode cannot tell whether this integer store of active memory carries floating-point data or a pointer in function 'swap_words'
#include <stddef.h>
double __parad_autodiff(void *, ...);
__attribute__((noinline)) static void swap_words(void *pa, void *pb, size_t bytes) {
  long *a = pa, *b = pb;
  for (size_t i = 0; i < bytes / sizeof(long); i++) {
    long t = a[i];
    a[i] = b[i];
    b[i] = t;
  }
}
typedef struct {
  double value;
  int count;
} Entry;

double swapped_entries(const double *x) {
  Entry a = {x[0] * x[1], 2}, b = {x[1], 3};
  swap_words(&a, &b, sizeof(Entry));
  return a.value * a.count + b.value * b.value * b.count;
}

int main(void) {
  double x[2] = {1.3, -0.4}, g[2] = {0};
  __parad_autodiff((void *)swapped_entries, x, g);
  return g[0] == 0;
}
