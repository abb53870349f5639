/* Byte-by-byte copies and swaps whose blocks overlap so that the loop reads bytes it has written
 * (ad/byte_loops.h makes the other calls block moves). They run here as the program's loop ran, one byte
 * at a time, in the same order. Tangents are bits that move with their values, so forward mode does the
 * same to the shadows. Reverse mode would have to add adjoints that the loop has repeated or mixed, at a
 * type only the blocks' use tells: it stops with a message instead of a derivative it cannot stand by. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

void __parad_rt_byte_copy(void *to, const void *from, size_t n) {
  unsigned char *d = to;
  const unsigned char *s = from;
  for (size_t i = 0; i < n; i++) d[i] = s[i];
}

void __parad_rt_byte_swap(void *a, void *b, size_t n) {
  unsigned char *p = a, *q = b;
  for (size_t i = 0; i < n; i++) {
    unsigned char t = p[i];
    p[i] = q[i];
    q[i] = t;
  }
}

void __parad_rt_byte_copy_forward(void *to, void *dto, const void *from, const void *dfrom, size_t n) {
  __parad_rt_byte_copy(to, from, n);
  if (dto && dfrom) __parad_rt_byte_copy(dto, dfrom, n);
}

void __parad_rt_byte_copy_forward_next(void *to, void *dto, const void *from, const void *dfrom, size_t n) {
  (void)to, (void)from;
  if (dto && dfrom) __parad_rt_byte_copy(dto, dfrom, n);
}

void __parad_rt_byte_swap_forward(void *a, void *da, void *b, void *db, size_t n) {
  __parad_rt_byte_swap(a, b, n);
  if (da && db) __parad_rt_byte_swap(da, db, n);
}

void __parad_rt_byte_swap_forward_next(void *a, void *da, void *b, void *db, size_t n) {
  (void)a, (void)b;
  if (da && db) __parad_rt_byte_swap(da, db, n);
}

static void stop(const char *what) {
  fprintf(stderr,
          "parad runtime: reverse mode cannot differentiate a byte-by-byte %s: the loop reads bytes it has "
          "written, and their adjoints cannot be added back a byte at a time; move the bytes with memmove, "
          "or through a separate buffer\n",
          what);
  exit(70);
}

static const char copy_ahead[] = "copy whose destination starts inside its source, after its start";
static const char swap_overlapping[] = "swap of two blocks that partly overlap";

void *__parad_rt_byte_copy_augment(void *to, void *dto, const void *from, const void *dfrom, size_t n) {
  (void)to, (void)dto, (void)from, (void)dfrom, (void)n;
  stop(copy_ahead);
  return NULL;
}

void __parad_rt_byte_copy_gradient(void *to, void *dto, const void *from, const void *dfrom, size_t n, void *tape) {
  (void)to, (void)dto, (void)from, (void)dfrom, (void)n, (void)tape;
  stop(copy_ahead);
}

void *__parad_rt_byte_swap_augment(void *a, void *da, void *b, void *db, size_t n) {
  (void)a, (void)da, (void)b, (void)db, (void)n;
  stop(swap_overlapping);
  return NULL;
}

void __parad_rt_byte_swap_gradient(void *a, void *da, void *b, void *db, size_t n, void *tape) {
  (void)a, (void)da, (void)b, (void)db, (void)n, (void)tape;
  stop(swap_overlapping);
}
