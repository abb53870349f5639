/* The other file of tests/rev/word_swap_elsewhere.c, compiled with -fno-strict-aliasing: a generic swap
   of 8-byte words. */
#include <stddef.h>
__attribute__((noinline)) void swap_words(void *pa, void *pb, size_t bytes) {
  long *a = pa, *b = pb;
  for (size_t i = 0; i < bytes / sizeof(long); i++) {
    long t = a[i];
    a[i] = b[i];
    b[i] = t;
  }
}
