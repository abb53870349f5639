/* Heap blocks held by pointer globals (ad/global_blocks.h): `static double *work`, allocated by the
 * program's set-up, filled by differentiated code. The program notes each such block with its size where
 * it allocates it; every derivative's entry asks for a zeroed shadow of the block a global holds then.
 *
 * A block's shadows are one per kind (the mode, and the direction of vector forward mode), shared by every
 * global that points into the block: two globals holding one block see the same derivatives. They are kept
 * between derivatives (zeroed again at each entry) and freed with the block, but for the ones handed to a
 * derivative that runs: where it frees or reallocates the block, it does the same with the shadow.
 *
 * A block the derivative allocated itself (a workspace made on first use) has the shadow the derivative
 * made for it in the shadow global as it ends: the runtime takes that one over, where no block owns it,
 * instead of leaving it behind. */
#define _GNU_SOURCE /* malloc_usable_size */
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"

enum { KINDS = 64 }; /* kind = use * 32 + direction (generated code: global_block_enter) */

typedef struct {
  char *block;
  size_t size;
  void *shadow[KINDS];
  size_t cap[KINDS];
  _Bool handed[KINDS]; /* to a derivative that runs (from __parad_rt_block_shadow to __parad_rt_blocks_leave) */
  unsigned long born[KINDS]; /* the derivative of that kind that noted it, as `entries` counts them (0: none) */
} Block;

/* Per kind, the derivatives entered so far, and whether one runs. */
static unsigned long entries[KINDS];
static _Bool running[KINDS];

static Block *blocks;
static size_t nblocks, capblocks;

/* The last blocks the program freed (their shadows gone), for a global left pointing at one (a workspace
 * static freed on a routine's last call and allocated again on its next first call, as NR's mrqmin does):
 * a pointer the program may not read through before it sets it again, whose shadow is no block either. */
enum { FREED = 64 };
static struct {
  const char *lo;
  size_t size;
} freed[FREED];
static unsigned freed_next;

static _Bool was_freed(const char *p) {
  for (int i = 0; i < FREED; i++)
    if (freed[i].lo && p >= freed[i].lo && p < freed[i].lo + (freed[i].size ? freed[i].size : 1)) return 1;
  return 0;
}
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void fatal(const char *what, const char *global) {
  char name[512] = "";
  if (global) __parad_rt_quoted_name(name, sizeof name, global);
  fprintf(stderr, "parad runtime: %s%s\n", what, name);
  abort();
}

static void drop_shadows(Block *b) {
  for (int k = 0; k < KINDS; k++)
    if (!b->handed[k]) free(b->shadow[k]);
}

/* The block p points into (with mu held), or NULL. Else one p points just past (an end pointer). Else one
 * starting just after p, within 64 bytes: a 1-based array made by an offset (Numerical Recipes' first
 * `vector`, `malloc(n * sizeof *v) - 1`), whose element 0 is never read. */
static Block *block_holding(const void *p) {
  const char *c = p;
  for (size_t i = 0; i < nblocks; i++)
    if (c >= blocks[i].block && c < blocks[i].block + (blocks[i].size ? blocks[i].size : 1)) return &blocks[i];
  for (size_t i = 0; i < nblocks; i++)
    if (c == blocks[i].block + blocks[i].size) return &blocks[i];
  for (size_t i = 0; i < nblocks; i++)
    if (c < blocks[i].block && blocks[i].block - c <= 64) return &blocks[i];
  return NULL;
}

static Block *find_exact(const void *p) {
  for (size_t i = 0; i < nblocks; i++)
    if (blocks[i].block == p) return &blocks[i];
  return NULL;
}

static void release_all(void) {
  for (size_t i = 0; i < nblocks; i++) drop_shadows(&blocks[i]);
  free(blocks);
  blocks = NULL;
  nblocks = capblocks = 0;
}

/* The program stored a block of `size` bytes at p into such a global. */
void __parad_rt_block_note(void *p, unsigned long long size) {
  if (!p) return;
  pthread_mutex_lock(&mu);
  Block *b = find_exact(p);
  if (!b) {
    if (nblocks == capblocks) {
      if (!capblocks) atexit(release_all);
      capblocks = capblocks ? 2 * capblocks : 16;
      Block *grown = realloc(blocks, capblocks * sizeof *blocks);
      if (!grown) fatal("out of memory for the notes of blocks held by pointer globals", NULL);
      blocks = grown;
    }
    b = &blocks[nblocks++];
    memset(b, 0, sizeof *b);
    b->block = p;
  }
  b->size = size; /* the same address again: a block freed and allocated anew, shadows kept for reuse */
  for (int i = 0; i < FREED; i++)
    if (freed[i].lo == (const char *)p) freed[i].lo = NULL;
  for (int k = 0; k < KINDS; k++) b->born[k] = running[k] ? entries[k] : 0;
  pthread_mutex_unlock(&mu);
}

/* The same for a block an allocation wrapper of the program returned (xmalloc): the size malloc gave it. */
void __parad_rt_block_note_heap(void *p) {
  if (p) __parad_rt_block_note(p, malloc_usable_size(p));
}

/* The program frees (or reallocates) the block at p: its shadows go, but those a running derivative frees
 * (or reallocates) itself. */
void __parad_rt_block_forget(void *p) {
  if (!p) return;
  pthread_mutex_lock(&mu);
  Block *b = find_exact(p);
  if (b) {
    freed[freed_next].lo = b->block, freed[freed_next].size = b->size, freed_next = (freed_next + 1) % FREED;
    drop_shadows(b);
    *b = blocks[--nblocks];
  }
  pthread_mutex_unlock(&mu);
}

/* Whether some block owns shadow s. */
static _Bool owned(const void *s) {
  for (size_t i = 0; i < nblocks; i++)
    for (int k = 0; k < KINDS; k++)
      if (blocks[i].shadow[k] == s) return 1;
  return 0;
}

/* At a derivative's entry: a zeroed shadow, of the given kind, of the block the global `name` holds, at
 * the same offset as p into it (NULL for NULL). */
void *__parad_rt_block_shadow(void *p, unsigned kind, const char *name) {
  if (!p) return NULL;
  if (kind >= KINDS) fatal("too many directions for the shadow of the block held by the pointer global ", name);
  pthread_mutex_lock(&mu);
  Block *b = block_holding(p);
  if (!b && was_freed(p)) { /* dangling: no shadow, as the program has no block there */
    pthread_mutex_unlock(&mu);
    return NULL;
  }
  if (!b) {
    pthread_mutex_unlock(&mu);
    fatal("a derivative starts while a pointer global holds memory Parad has no shadow for: only a block stored "
          "into the global where code built by parad-cc allocates it (malloc, calloc, realloc, aligned_alloc, "
          "memalign, posix_memalign or new) gets one, not one that reaches the global through another pointer "
          "(a free list's recycled node) or that a library allocated: ", name);
  }
  if (!b->size) { /* (malloc(0): nothing to differentiate there) */
    pthread_mutex_unlock(&mu);
    return NULL;
  }
  if (b->handed[kind]) { /* asked for again in the same entry (two globals holding it): as it is */
    void *s = (char *)b->shadow[kind] + ((char *)p - b->block);
    pthread_mutex_unlock(&mu);
    return s;
  }
  if (b->cap[kind] < b->size) {
    free(b->shadow[kind]);
    b->shadow[kind] = malloc(b->size);
    if (!b->shadow[kind]) fatal("out of memory for the shadow of the block held by the pointer global ", name);
    b->cap[kind] = b->size;
  }
  memset(b->shadow[kind], 0, b->size);
  b->handed[kind] = 1;
  void *s = (char *)b->shadow[kind] + ((char *)p - b->block);
  pthread_mutex_unlock(&mu);
  return s;
}

/* At a derivative's entry, for a pointer the block at p holds at offset (its shadow at s, either NULL when
 * the global holds none): a zeroed shadow of the block it points to, at the same offset in s. */
void __parad_rt_block_shadow_in(void *p, void *s, unsigned long long offset, unsigned kind, const char *name) {
  if (!p || !s) return;
  void *held = *(void **)((char *)p + offset);
  *(void **)((char *)s + offset) = __parad_rt_block_shadow(held, kind, name);
}

/* At a derivative's entry, the slot `offset` bytes into the shadow s of a global's block, where the
 * derivative sets the block's pointer there before reading it: what it held (an earlier call's array)
 * needs no shadow. */
void __parad_rt_block_clear_in(void *s, unsigned long long offset) {
  if (s) *(void **)((char *)s + offset) = NULL;
}

/* As a derivative of the given kind ends, the global holds p and its shadow global s: a shadow the
 * derivative made for a block it allocated, which the runtime keeps from now on. */
void __parad_rt_block_keep(void *p, unsigned kind, void *s) {
  if (!p || !s || kind >= KINDS) return;
  pthread_mutex_lock(&mu);
  Block *b = find_exact(p);
  /* only a block this derivative allocated: a global pointed at what the derivative was given (`X = x`,
     noted where main allocated x and stored it) holds the caller's own shadow then, a gradient's buffer */
  if (b && b->born[kind] && b->born[kind] == entries[kind] && !b->shadow[kind] && !owned(s) && malloc_usable_size(s) >= b->size) {
    b->shadow[kind] = s;
    b->cap[kind] = b->size;
  }
  pthread_mutex_unlock(&mu);
}

void __parad_rt_blocks_enter(unsigned kind) {
  if (kind >= KINDS) return;
  pthread_mutex_lock(&mu);
  entries[kind]++, running[kind] = 1;
  pthread_mutex_unlock(&mu);
}

/* After a derivative of the given kind: the shadows it was handed are the runtime's again. */
void __parad_rt_blocks_leave(unsigned kind) {
  if (kind >= KINDS) return;
  pthread_mutex_lock(&mu);
  running[kind] = 0;
  for (size_t i = 0; i < nblocks; i++) blocks[i].handed[kind] = 0;
  pthread_mutex_unlock(&mu);
}

/* The same for a pointer the block at p holds at offset, its shadow in the block's shadow s. */
void __parad_rt_block_keep_in(void *p, void *s, unsigned long long offset, unsigned kind) {
  if (!p || !s) return;
  __parad_rt_block_keep(*(void **)((char *)p + offset), kind, *(void **)((char *)s + offset));
}

/* Before a derivative (ad/global_arguments.h): stops the program where a pointer argument with a shadow
 * points into the block a pointer global holds (held), which the code also reads through the global. */
void __parad_rt_argument_in_block(void *arg, void *held, const char *message) {
  if (!arg || !held) return;
  char *a = arg, *start = held, *end = start + 1;
  pthread_mutex_lock(&mu);
  Block *b = block_holding(held);
  if (b) start = b->block, end = start + (b->size ? b->size : 1);
  pthread_mutex_unlock(&mu);
  if (a < start || a >= end) return;
  fprintf(stderr, "parad: %s\n", message);
  abort();
}

/* The same one level down: for the pointer the block at held keeps at offset (`M->p`), read where the
 * block (if noted) reaches that far. */
void __parad_rt_argument_in_held(void *arg, void *held, unsigned long long offset, const char *message) {
  if (!arg || !held) return;
  pthread_mutex_lock(&mu);
  Block *b = block_holding(held);
  int within = !b || !b->size || (char *)held + offset + sizeof(void *) <= b->block + b->size;
  pthread_mutex_unlock(&mu);
  if (!within) return;
  void *inner;
  memcpy(&inner, (char *)held + offset, sizeof inner);
  __parad_rt_argument_in_block(arg, inner, message);
}

/* Before a derivative (ad/global_arguments.h): stops the program where pointer held (one a constant
 * argument holds, or a table) lies inside the extent bytes an argument with a shadow points to (its first
 * byte where the compiler did not know them). */
void __parad_rt_constant_holds_argument(const char *held, const char *arg, unsigned long long extent, const char *message) {
  if (!held || !arg || held < arg || held >= arg + (extent ? extent : 1)) return;
  fprintf(stderr, "parad: %s\n", message);
  abort();
}

/* Before a derivative (ad/global_arguments.h): stops the program where a pointer the global table holds
 * (count elements of stride bytes, each with pointers at the n offsets) points into the extent bytes at arg
 * (arg alone where the compiler did not know them). */
void __parad_rt_argument_in_table(const char *arg, unsigned long long extent, const char *table, unsigned long long count,
                                  unsigned long long stride, const unsigned *offsets, unsigned n, const char *message) {
  if (!arg || !table) return;
  for (unsigned long long i = 0; i < count; i++)
    for (unsigned k = 0; k < n; k++) {
      const char *held;
      memcpy(&held, table + i * stride + offsets[k], sizeof held);
      __parad_rt_constant_holds_argument(held, arg, extent, message);
    }
}
