/* Heap memory in reverse mode: shadows of freed blocks, realloc, and the adjoint of a copy. */
#define _GNU_SOURCE
#include <malloc.h>
#include <sched.h>
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
  __parad_rt_program_freed(__parad_rt_current, shadow, 0); /* the program's free: freed_copies.c */
  __parad_rt_free_later_on(__parad_rt_current, shadow);
}

/* The same for a block that holds floats of `width` bytes only. */
void __parad_rt_free_later_floats(void *shadow, int width) {
  __parad_rt_program_freed(__parad_rt_current, shadow, width);
  __parad_rt_free_later_on(__parad_rt_current, shadow);
}

void __parad_rt_delete_later(void *shadow, int float_width, void (*release)(void *)) {
  __parad_rt_program_freed(__parad_rt_current, shadow, float_width);
  if (shadow) __parad_rt_release_later(release, shadow);
}

void __parad_rt_free_later_on(ParadTape *t, void *shadow) {
  if (!shadow) return;
  if (!t) fatal("a shadow was freed outside a differentiated call");
  if (t->nlater == t->caplater) {
    t->caplater = t->caplater ? 2 * t->caplater : 64;
    t->later = realloc(t->later, t->caplater * sizeof *t->later);
    if (!t->later) fatal("out of memory");
  }
  t->later[t->nlater++] = shadow;
}

struct ParadAction {
  void (*release)(void *);
  void *handle;
};

void __parad_rt_release_later(void (*release)(void *), void *handle) { __parad_rt_release_later_on(__parad_rt_current, release, handle); }

void __parad_rt_release_later_on(ParadTape *t, void (*release)(void *), void *handle) {
  if (!handle) return;
  if (!t) fatal("a handle was released for later outside a differentiated call");
  if (t->nactions == t->capactions) {
    t->capactions = t->capactions ? 2 * t->capactions : 8;
    t->actions = realloc(t->actions, t->capactions * sizeof *t->actions);
    if (!t->actions) fatal("out of memory");
  }
  t->actions[t->nactions++] = (struct ParadAction){release, handle};
}

void __parad_rt_release_now(ParadTape *t) {
  while (t->nactions) {
    struct ParadAction a = t->actions[--t->nactions];
    a.release(a.handle);
  }
}

/* A stack slot whose memory a checkpointed loop or a custom gradient reverses after the forward sweep's
 * frame is gone: on the heap until the tape ends. */
void *__parad_rt_slot_on_heap(size_t bytes, size_t align) {
  void *p = __parad_rt_shadow_alloc_aligned(bytes, align);
  if (!p) fatal("out of memory for a stack slot kept for the reverse sweep");
  __parad_rt_free_later_on(__parad_rt_current, p);
  return p;
}

/* A call's copies of the memory its registered gradient reads (reverse/rev_call.c "kept"): written whole
 * before anything reads them, so not zeroed; until the tape ends. */
void *__parad_rt_kept_on_heap(size_t bytes) {
  void *p = aligned_alloc(16, (bytes + 15) / 16 * 16);
  if (!p) fatal("out of memory for the memory a registered gradient reads");
  __parad_rt_free_later_on(__parad_rt_current, p);
  return p;
}

/* realloc's shadow: a new zeroed block. The old shadow stays until the tape ends, because the reverse
 * sweep adds the moved data's adjoints back into it; the tape remembers which block moved where.
 * moves: REALLOC_FLOATS (the new shadow starts at zero), REALLOC_POINTERS (the old shadow is copied, for
 * the pointers' shadows), REALLOC_BYTES (a block the compiler could not tell the kind of, a generic
 * container's: copied, and copied back by the reverse sweep, adjoints and pointers' shadows alike; the
 * old shadow, whose block is gone, is not written between the two). */
enum { REALLOC_FLOATS, REALLOC_POINTERS, REALLOC_BYTES };
struct ParadMove {
  void *shadow, *old_shadow;
  size_t moved;
  int handed_back; /* what the old shadow holds once reversed goes to the new one (hand_back below) */
  int reversed;    /* its reverse sweep ran */
};

void *__parad_rt_realloc_shadow(void *old, void *old_shadow, size_t size, int moves) {
  ParadTape *t = __parad_rt_current;
  if (!t) fatal("realloc of active memory outside a differentiated call");
  /* what moves: the old block's bytes, as far as its shadow has them too (a block realloc grew or shrank
     in place may hold more than the size its shadow was made for) */
  size_t old_size = old ? malloc_usable_size(old) : 0, shadow_size = old_shadow ? malloc_usable_size(old_shadow) : 0;
  if (old_shadow && shadow_size < old_size) old_size = shadow_size;
  void *shadow = __parad_rt_shadow_alloc(1, size ? size : 1); /* pooled: given back to the pool with the tape */
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
  m->handed_back = moves != REALLOC_POINTERS;
  m->reversed = 0;
  if (moves != REALLOC_FLOATS && old_shadow) memcpy(shadow, old_shadow, m->moved); /* pointers' shadows move along */
  if (old_shadow) __parad_rt_free_later_on(t, old_shadow);
  return shadow;
}

/* As the tape ends, after its reverse sweep: each old shadow's adjoints of what its block held before the
 * realloc go where the program's pointer now leads, the new block's shadow (in the order of the reallocs,
 * so that a block moved twice passes them on). The old shadow is freed with the tape, as realloc freed the
 * old block: where the caller passed that block in (`v.push_back` on a vector given by reference, `*p =
 * realloc(*p, ...)`), the caller's shadow pointer was set to the new shadow by the derivative, and the
 * adjoints of the inputs were freed with the old one (a gradient of zeros, no message). For a block the
 * derivative allocated, what is left there is zero, and the new shadow's part was zeroed by the reverse
 * sweep: nothing changes. */
void __parad_rt_moves_hand_back(ParadTape *t) {
  for (size_t i = 0; i < t->nmoves; i++) {
    struct ParadMove *m = &t->moves[i];
    if (m->reversed && m->handed_back && m->old_shadow && m->shadow) memcpy(m->shadow, m->old_shadow, m->moved);
  }
}

static struct ParadMove *move_of(void *shadow) {
  ParadTape *t = __parad_rt_current;
  for (size_t i = t ? t->nmoves : 0; i-- > 0;)
    if (t->moves[i].shadow == shadow) return &t->moves[i];
  fatal("the reverse sweep of a realloc found no record of it");
  return NULL;
}

void __parad_rt_realloc_shadow_reverse(void *shadow, int float_bytes) {
  struct ParadMove *m = move_of(shadow);
  m->reversed = 1;
  if (!m->old_shadow) return;
  if (float_bytes == 1) { /* REALLOC_BYTES: the new shadow started as a copy of the old */
    memcpy(m->old_shadow, shadow, m->moved);
    memset(shadow, 0, m->moved);
  } else if (float_bytes == 8) {
    double *to = m->old_shadow, *from = shadow;
    for (size_t i = 0; i < m->moved / 8; i++) to[i] += from[i], from[i] = 0;
  } else {
    float *to = m->old_shadow, *from = shadow;
    for (size_t i = 0; i < m->moved / 4; i++) to[i] += from[i], from[i] = 0;
  }
}

/* The tangent of memmove(dst, src, n) where src may be a view of constant memory: zeros where src's
 * shadow is NULL (ad/constants.h), else a copy of it. */
void __parad_rt_copy_tangent(void *d, const void *s, size_t bytes) {
  if (s) memmove(d, s, bytes);
  else memset(d, 0, bytes);
}

/* The adjoint of memmove(dst, src, n): src's adjoint gains dst's, and dst's is reset. When the blocks
 * overlap, dst's adjoint is read whole before anything is written. A NULL src (a view of constant
 * memory, ad/constants.h) has no adjoint: dst's is only reset. */
#define COPY_ADJOINT(name, T)                                                          \
  void name(T *d, T *s, size_t bytes) {                                                \
    size_t n = bytes / sizeof(T);                                                      \
    if (!s) {                                                                          \
      memset(d, 0, bytes);                                                             \
      return;                                                                          \
    }                                                                                  \
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

COPY_ADJOINT(__parad_rt_move_adjoint_f64, double)
COPY_ADJOINT(__parad_rt_move_adjoint_f32, float)
COPY_ADJOINT(__parad_rt_copy_adjoint_f80, long double) /* copies between typed locals and globals only */

void __parad_rt_copy_adjoint_f64(double *d, double *s, size_t bytes) {
  __parad_rt_note_copy((char *)d, (char *)s, bytes, COPY_F64, 0, 0, NULL, 0);
  __parad_rt_move_adjoint_f64(d, s, bytes);
}

void __parad_rt_copy_adjoint_f32(float *d, float *s, size_t bytes) {
  __parad_rt_note_copy((char *)d, (char *)s, bytes, COPY_F32, 0, 0, NULL, 0);
  __parad_rt_move_adjoint_f32(d, s, bytes);
}

/* *p += v, atomically: in a parallel region other threads may add into the same adjoint. */
static void atomic_add_f64(double *p, double v) {
  double old, sum;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  do sum = old + v;
  while (!__atomic_compare_exchange(p, &old, &sum, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

static void atomic_add_f32(float *p, float v) {
  float old, sum;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  do sum = old + v;
  while (!__atomic_compare_exchange(p, &old, &sum, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

/* *p += v for a long double or a __float128, which no instruction adds atomically (the adjoint of a
 * long double reduction, say): under a lock of a few, picked by the address. */
static char wide_locks[64];

static char *wide_lock(const void *p) {
  char *l = &wide_locks[((unsigned long)p >> 4) & 63];
  while (__atomic_test_and_set(l, __ATOMIC_ACQUIRE)) sched_yield();
  return l;
}

void __parad_rt_atomic_add_f80(long double *p, long double v) {
  char *l = wide_lock(p);
  *p += v;
  __atomic_clear(l, __ATOMIC_RELEASE);
}

void __parad_rt_atomic_add_f128(__float128 *p, __float128 v) {
  char *l = wide_lock(p);
  *p += v;
  __atomic_clear(l, __ATOMIC_RELEASE);
}

/* The same, when the source's adjoint may be shared with other threads of a parallel region. */
#define COPY_ADJOINT_ATOMIC(name, T, add, kind)                                            \
  void name(T *d, T *s, size_t bytes) {                                                    \
    __parad_rt_note_copy((char *)d, (char *)s, bytes, kind, 0, 0, NULL, 0);                \
    size_t n = bytes / sizeof(T);                                                          \
    if (!s) {                                                                              \
      memset(d, 0, bytes);                                                                 \
      return;                                                                              \
    }                                                                                      \
    T *tmp = malloc(bytes ? bytes : 1);                                                    \
    if (!tmp) fatal("out of memory");                                                      \
    memcpy(tmp, d, bytes);                                                                 \
    memset(d, 0, bytes);                                                                   \
    for (size_t i = 0; i < n; i++) add(&s[i], tmp[i]);                                     \
    free(tmp);                                                                             \
  }

COPY_ADJOINT_ATOMIC(__parad_rt_copy_adjoint_f64_atomic, double, atomic_add_f64, COPY_F64)
COPY_ADJOINT_ATOMIC(__parad_rt_copy_adjoint_f32_atomic, float, atomic_add_f32, COPY_F32)

/* Copies of structs that mix floats with other data. The layout comes as runs (offset, count, kind) in
 * a pattern of `period` bytes of which the block starts at byte `phase`; kind 1 is double, 2 float,
 * 3 pointer (see MemLayout in analysis/memtype.h). */
enum { RUN_F64 = 1, RUN_F32 = 2, RUN_PTR = 3 };
/* A pattern of this period does not repeat (analysis/memtype.h's LAYOUT_ONCE): a flexible array member's. */
#define LAYOUT_ONCE (1u << 30)

typedef void Visit(char *d, char *s, char *from, size_t at, unsigned kind);

/* Calls visit for every value of the runs whose kind is in `kinds` (a bit set) that lies wholly in the
 * block of `bytes` bytes. */
static void each_value(char *d, char *s, char *from, size_t bytes, size_t period, size_t phase,
                       const unsigned *runs, unsigned n, unsigned kinds, Visit *visit) {
  if (period >= LAYOUT_ONCE && bytes + phase > period)
    fatal("a block with a header and a flexible array member of over 1 GiB: its floats cannot be told apart");
  for (size_t start = 0; start < bytes + phase; start += period)
    for (unsigned r = 0; r < n; r++) {
      unsigned offset = runs[3 * r], count = runs[3 * r + 1], kind = runs[3 * r + 2];
      size_t size = kind == RUN_F32 ? 4 : 8, first = start + offset; /* from the start of the pattern the block begins in */
      if (!(kinds & 1u << kind)) continue;
      size_t i = first >= phase ? 0 : (phase - first + size - 1) / size; /* the values wholly in the block */
      for (; i < count && first + i * size + size <= bytes + phase; i++) visit(d, s, from, first + i * size - phase, kind);
    }
}

static void zero_float(char *d, char *s, char *from, size_t at, unsigned kind) {
  (void)s, (void)from;
  memset(d + at, 0, kind == RUN_F32 ? 4 : 8);
}

static void add_float_atomic(char *d, char *s, char *from, size_t at, unsigned kind) {
  (void)d;
  if (kind == RUN_F64) {
    double y;
    memcpy(&y, from + at, 8);
    atomic_add_f64((double *)(s + at), y);
  } else {
    float y;
    memcpy(&y, from + at, 4);
    atomic_add_f32((float *)(s + at), y);
  }
}

static void add_float(char *d, char *s, char *from, size_t at, unsigned kind) {
  (void)d;
  if (kind == RUN_F64) {
    double x, y;
    memcpy(&x, s + at, 8), memcpy(&y, from + at, 8), x += y;
    memcpy(s + at, &x, 8);
  } else {
    float x, y;
    memcpy(&x, s + at, 4), memcpy(&y, from + at, 4), x += y;
    memcpy(s + at, &x, 4);
  }
}

static void copy_pointer(char *d, char *s, char *from, size_t at, unsigned kind) {
  (void)s, (void)kind;
  if (from) memcpy(d + at, from + at, sizeof(void *));
  else memset(d + at, 0, sizeof(void *));
}

/* The reverse of memmove(dst, src, bytes) (src NULL: of a memset) over such structs: the floats' adjoints
 * in dst go to src and are reset; the other bytes are left alone. */
void __parad_rt_move_adjoint_fields(char *d, char *s, size_t bytes, size_t period, size_t phase,
                                    const unsigned *runs, unsigned n) {
  unsigned floats = 1u << RUN_F64 | 1u << RUN_F32;
  if (!s || d + bytes <= s || s + bytes <= d) {
    if (s) each_value(d, s, d, bytes, period, phase, runs, n, floats, add_float);
    each_value(d, s, d, bytes, period, phase, runs, n, floats, zero_float);
    return;
  }
  /* overlapping: dst's adjoints are read whole and reset before src's grow */
  char *from = malloc(bytes ? bytes : 1);
  if (!from) fatal("out of memory");
  memcpy(from, d, bytes);
  each_value(d, s, from, bytes, period, phase, runs, n, floats, zero_float);
  each_value(d, s, from, bytes, period, phase, runs, n, floats, add_float);
  free(from);
}

void __parad_rt_copy_adjoint_fields(char *d, char *s, size_t bytes, size_t period, size_t phase,
                                    const unsigned *runs, unsigned n) {
  __parad_rt_note_copy(d, s, bytes, COPY_FIELDS, period, phase, runs, n);
  __parad_rt_move_adjoint_fields(d, s, bytes, period, phase, runs, n);
}

/* The same, when src's adjoint may be shared with other threads of a parallel region. */
void __parad_rt_copy_adjoint_fields_atomic(char *d, char *s, size_t bytes, size_t period, size_t phase,
                                           const unsigned *runs, unsigned n) {
  __parad_rt_note_copy(d, s, bytes, COPY_FIELDS, period, phase, runs, n);
  unsigned floats = 1u << RUN_F64 | 1u << RUN_F32;
  char *from = malloc(bytes ? bytes : 1);
  if (!from) fatal("out of memory");
  memcpy(from, d, bytes);
  each_value(d, s, from, bytes, period, phase, runs, n, floats, zero_float);
  if (s) each_value(d, s, from, bytes, period, phase, runs, n, floats, add_float_atomic);
  free(from);
}

/* The forward sweep of such a copy: the shadows of the pointers in it go along (src NULL: they become
 * null, as after a memset). */
void __parad_rt_copy_shadow_pointers(char *d, char *s, size_t bytes, size_t period, size_t phase,
                                     const unsigned *runs, unsigned n) {
  char *from = s;
  if (s && !(d + bytes <= s || s + bytes <= d)) {
    from = malloc(bytes ? bytes : 1);
    if (!from) fatal("out of memory");
    memcpy(from, s, bytes);
  }
  each_value(d, s, from, bytes, period, phase, runs, n, 1u << RUN_PTR, copy_pointer);
  if (from != s) free(from);
}

/* realloc over structs mixing kinds (an array of records grown one by one): in the forward sweep, the
 * shadows of the pointers among the moved bytes go along; in the reverse sweep, the floats' adjoints go
 * back to the old block's shadow. */
void __parad_rt_realloc_pointers(char *shadow, size_t period, size_t phase, const unsigned *runs, unsigned n) {
  struct ParadMove *m = move_of(shadow);
  if (m->old_shadow) __parad_rt_copy_shadow_pointers(shadow, m->old_shadow, m->moved, period, phase, runs, n);
}

void __parad_rt_realloc_adjoints(char *shadow, size_t period, size_t phase, const unsigned *runs, unsigned n) {
  struct ParadMove *m = move_of(shadow);
  m->reversed = 1; /* handed back as the tape ends: a caller's grown block keeps its adjoints */
  if (m->old_shadow) __parad_rt_move_adjoint_fields(shadow, m->old_shadow, m->moved, period, phase, runs, n);
}

/* A derivative's pointer argument inside a global its function also reads by name (ad/global_arguments.h):
 * `which` the global's message, -1 for none. */
void __parad_rt_argument_in_global(int which, const char *const *messages) {
  if (which < 0) return;
  fprintf(stderr, "parad: %s\n", messages[which]);
  abort();
}
