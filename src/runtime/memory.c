/* Heap memory in reverse mode: shadows of freed blocks, realloc, and the adjoint of a copy. */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tape.h"

static void fatal(const char *what) {
  fprintf(stderr, "parad runtime: %s\n", what);
  abort();
}

/* The reverse sweep still adds adjoints into the shadow of a block the forward sweep freed: it goes when
 * the tape does. */
void __parad_rt_free_later(void *shadow) {
  ParadTape *t = __parad_rt_current;
  if (!shadow) return;
  if (!t) fatal("a shadow was freed outside a differentiated call");
  if (t->nlater == t->caplater) {
    t->caplater = t->caplater ? 2 * t->caplater : 64;
    t->later = realloc(t->later, t->caplater * sizeof *t->later);
    if (!t->later) fatal("out of memory");
  }
  t->later[t->nlater++] = shadow;
}

/* realloc's shadow: a new zeroed block. The old shadow stays until the tape ends, because the reverse
 * sweep adds the moved data's adjoints back into it; the tape remembers which block moved where. */
struct ParadMove {
  void *shadow, *old_shadow;
  size_t moved;
};

void *__parad_rt_realloc_shadow(void *old, void *old_shadow, size_t size, int copy_pointers) {
  ParadTape *t = __parad_rt_current;
  if (!t) fatal("realloc of active memory outside a differentiated call");
  size_t old_size = old ? malloc_usable_size(old) : 0;
  void *shadow = calloc(1, size ? size : 1);
  if (!shadow) fatal("out of memory for the shadow of a realloc");
  if (t->nmoves == t->capmoves) {
    t->capmoves = t->capmoves ? 2 * t->capmoves : 16;
    t->moves = realloc(t->moves, t->capmoves * sizeof *t->moves);
    if (!t->moves) fatal("out of memory");
  }
  struct ParadMove *m = &t->moves[t->nmoves++];
  m->shadow = shadow;
  m->old_shadow = old_shadow;
  m->moved = old_size < size ? old_size : size;
  if (copy_pointers && old_shadow) memcpy(shadow, old_shadow, m->moved); /* shadows of pointers move along */
  if (old_shadow) __parad_rt_free_later(old_shadow);
  return shadow;
}

void __parad_rt_realloc_shadow_reverse(void *shadow, int float_bytes) {
  ParadTape *t = __parad_rt_current;
  struct ParadMove *m = NULL;
  for (size_t i = t ? t->nmoves : 0; i-- > 0;)
    if (t->moves[i].shadow == shadow) {
      m = &t->moves[i];
      break;
    }
  if (!m) fatal("the reverse sweep of a realloc found no record of it");
  if (!m->old_shadow) return;
  if (float_bytes == 8) {
    double *to = m->old_shadow, *from = shadow;
    for (size_t i = 0; i < m->moved / 8; i++) to[i] += from[i], from[i] = 0;
  } else {
    float *to = m->old_shadow, *from = shadow;
    for (size_t i = 0; i < m->moved / 4; i++) to[i] += from[i], from[i] = 0;
  }
}

/* The adjoint of memmove(dst, src, n): src's adjoint gains dst's, and dst's is reset. When the blocks
 * overlap, dst's adjoint is read whole before anything is written. */
#define COPY_ADJOINT(name, T)                                                          \
  void name(T *d, T *s, size_t bytes) {                                                \
    size_t n = bytes / sizeof(T);                                                      \
    if (d + n <= s || s + n <= d) {                                                    \
      for (size_t i = 0; i < n; i++) s[i] += d[i], d[i] = 0;                           \
      return;                                                                          \
    }                                                                                  \
    T *tmp = malloc(bytes ? bytes : 1);                                                \
    if (!tmp) fatal("out of memory");                                                  \
    memcpy(tmp, d, bytes);                                                             \
    memset(d, 0, bytes);                                                               \
    for (size_t i = 0; i < n; i++) s[i] += tmp[i];                                     \
    free(tmp);                                                                         \
  }

COPY_ADJOINT(__parad_rt_copy_adjoint_f64, double)
COPY_ADJOINT(__parad_rt_copy_adjoint_f32, float)
