/* The tape runtime. See tape.h for the layout generated code relies on. */
#define _DEFAULT_SOURCE /* posix_memalign, madvise (huge pages for long tapes) */
#include "tape.h"

#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct ParadChunk {
  ParadChunk *prev, *next; /* next: a chunk kept for reuse after reading back */
  char *used;              /* where the tape's top was when the next chunk was started */
  size_t size;             /* bytes of data */
  void *owner;             /* the thread that took it for a tape (its pool's address) */
  _Alignas(16) char data[];
};

/* Under a tape budget, where chunks count whole, a tape starts small: a task's or a region's tape records
 * a few hundred bytes, and 64 KiB each refused programs a budget held many times over (400 tasks recording
 * 35 KB in all went over 1 MiB). Chunks then double as usual, so what counts is at most about twice what
 * the tapes record, plus one small chunk per tape. */
enum { FIRST_CHUNK = 64 * 1024, FIRST_CHUNK_BUDGETED = 512, LARGEST_STEP = 64 * 1024 * 1024 };
#define POOL_AT_MOST ((size_t)2 << 30)

_Thread_local ParadTape *__parad_rt_current;
static _Thread_local size_t thread_peak;
static _Thread_local size_t thread_extra; /* snapshots of checkpointed loops held now (checkpoint.c) */
/* What each thread's tapes recorded (parad_tape_recorded_bytes sums them): a counter of all threads, added
 * to atomically at the end of every forward sweep, was a third of a small gradient's time (with the
 * budget's two atomics, 22 of 32 ns of tape begin and end) and a line every region's threads wrote. */
struct recorder {
  size_t bytes; /* written by its thread only, read by any */
  struct recorder *next;
  bool listed;
};
static _Thread_local struct recorder own_recorded;
static struct recorder *recorders; /* the threads' that have recorded, under recorders_mu */
static size_t recorded_by_gone;    /* threads' that have ended */
static pthread_mutex_t recorders_mu = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local ParadTape *spare; /* one finished tape kept per thread: most calls reuse it */
/* Chunks of finished tapes, kept for the thread's next tapes (up to POOL_AT_MOST bytes): a gradient computed
 * again and again (an optimiser's loop, a parallel region per time step) would otherwise fault in fresh
 * pages for its whole tape every time. One list per power of two (of a chunk's size, rounded down): a
 * gradient with a region per step pools thousands of chunks, and one list searched whole on every new
 * chunk took 3% of a CG gradient. */
enum { SIZE_CLASSES = 64 };
static _Thread_local ParadChunk *pool[SIZE_CLASSES];
static _Thread_local size_t pooled;

/* Shadows of heap blocks, once no reverse sweep needs them, kept in the same budget for the thread's next
 * gradients (a block's first word links it into its list): a program that allocates its work arrays inside
 * the differentiated code would otherwise map every shadow afresh, and a shadow read before it is written
 * (an adjoint added into) faults twice per page, the second time stopping the process's other threads to
 * flush their TLBs. Blocks under SMALL_SHADOW are left to malloc. */
enum { SMALL_SHADOW = 64 * 1024 };
static _Thread_local void *shadow_pool[SIZE_CLASSES];

static int size_class(size_t size) { return size ? 63 - __builtin_clzll((unsigned long long)size) : 0; }

static void fatal(const char *what) {
  fprintf(stderr, "parad runtime: %s\n", what);
  abort();
}

/* Chunks of 4 MB and more (a long tape's, a region's copies) start on a 2 MB boundary and ask the kernel
 * for huge pages, which it gives on request where it does not always (Debian's default): a long tape
 * streams through memory once each way, a page-table walk every 4 KB in small pages (a GMM gradient with
 * a 170 MB tape: 62 -> 53 ms, 5.2 -> 4.5 primals; bench/lj_omp 5.7-6.0 -> 5.1-5.2). Only advice: where
 * refused, nothing changes. */
enum { HUGE_PAGE = 2 << 20, HUGE_FROM = 4 << 20 };

static ParadChunk *alloc_chunk(size_t bytes) {
  if (bytes < HUGE_FROM) return malloc(bytes);
  void *m;
  if (posix_memalign(&m, HUGE_PAGE, bytes)) return NULL;
  madvise(m, bytes & ~(size_t)(HUGE_PAGE - 1), MADV_HUGEPAGE);
  return m;
}

/* A chunk of at least size bytes from the lists `from` (a pool), of the smallest class that has one, taken
 * off its list; NULL if none. */
static ParadChunk *take_from(ParadChunk **from, size_t size) {
  ParadChunk **best = NULL;
  /* under a budget, where a chunk counts whole, not one more than twice as big as asked for */
  int last = __parad_rt_tape_budget_limit() ? size_class(size) + 1 : SIZE_CLASSES - 1;
  for (int k = size_class(size); k <= last && !best; k++)
    for (ParadChunk **p = &from[k]; *p && !best; p = &(*p)->next)
      if ((*p)->size >= size) best = p;
  if (!best) return NULL;
  ParadChunk *c = *best;
  *best = c->next;
  return c;
}

static ParadChunk *fresh(ParadChunk *c) {
  c->prev = c->next = NULL;
  c->used = NULL;
  return c;
}

/* A chunk of at least size bytes from the thread's pool, counted out of it; NULL if none. */
static ParadChunk *take_pooled(size_t size) {
  ParadChunk *c = take_from(pool, size);
  if (c) pooled -= sizeof *c + c->size;
  return c;
}

/* A new chunk of size bytes; NULL when out of memory. */
static ParadChunk *new_sized(size_t size) {
  ParadChunk *c = alloc_chunk(sizeof *c + size);
  if (c) c->size = size, c->owner = (void *)pool;
  return c;
}

static ParadChunk *take_shared(size_t size);

/* A pooled chunk of at least size bytes (the thread's, else one other threads handed back), else a new
 * one; NULL when out of memory. */
static ParadChunk *take_chunk(size_t size) {
  ParadChunk *c = take_pooled(size);
  if (!c) c = take_shared(size);
  if (!c) c = new_sized(size);
  if (c) c->owner = (void *)pool;
  return c ? fresh(c) : NULL;
}

static ParadChunk *new_chunk(ParadTape *t, size_t size) {
  __parad_rt_tape_budget_take(sizeof(ParadChunk) + size);
  ParadChunk *c = take_chunk(size);
  if (!c) fatal("out of memory for the tape of reverse mode (the forward sweep records too much; "
                "checkpoint long loops)");
  t->bytes += sizeof *c + c->size;
  if (c->size > size) __parad_rt_tape_budget_take(c->size - size); /* a bigger pooled chunk */
  return c;
}

static void enter(ParadTape *t, ParadChunk *c) {
  t->chunk = c;
  t->base = c->data;
  t->end = c->data + c->size;
}

/* A tape's first chunk (the one without a previous) counts against the budget where first_counted says. */
static void free_chunks(ParadTape *t) {
  ParadChunk *c = t->chunk;
  while (c->next) c = c->next;
  while (c) {
    ParadChunk *p = c->prev;
    if (p || t->first_counted) __parad_rt_tape_budget_give(sizeof *c + c->size);
    free(c);
    c = p;
  }
}

static void free_tape(ParadTape *t) {
  free_chunks(t);
  __parad_rt_freed_copies_free(t);
  free(t->later);
  free(t->moves);
  free(t->regions);
  free(t->tickets);
  free(t->actions);
  free(t);
}

/* A thread's spare tape and pooled chunks go when the thread does (a key destructor), and the main
 * thread's when the program exits, so that memory checkers see nothing left behind. */
static pthread_key_t cache_key;
static _Thread_local bool cache_noted;
static pthread_once_t cache_key_once = PTHREAD_ONCE_INIT;

static void release_shadows(void) {
  for (int k = 0; k < SIZE_CLASSES; k++) {
    for (void *b = shadow_pool[k], *n; b; b = n) {
      n = *(void **)b;
      free(b);
    }
    shadow_pool[k] = NULL;
  }
}

static void unlist_recorder(void) {
  if (!own_recorded.listed) return;
  pthread_mutex_lock(&recorders_mu);
  for (struct recorder **r = &recorders; *r; r = &(*r)->next)
    if (*r == &own_recorded) {
      *r = own_recorded.next;
      break;
    }
  recorded_by_gone += own_recorded.bytes;
  pthread_mutex_unlock(&recorders_mu);
  own_recorded.bytes = 0;
  own_recorded.listed = false;
}

static void release_cache(void *unused) {
  (void)unused;
  cache_noted = false;
  unlist_recorder();
  if (spare) free_tape(spare);
  spare = NULL;
  for (int k = 0; k < SIZE_CLASSES; k++) {
    for (ParadChunk *c = pool[k], *n; c; c = n) {
      n = c->next;
      free(c);
    }
    pool[k] = NULL;
  }
  release_shadows();
  pooled = 0;
}

static void make_cache_key(void) { pthread_key_create(&cache_key, release_cache); }

/* The thread now keeps something: its key must be set for the destructor to run. */
static void note_cache(void) {
  if (cache_noted) return;
  pthread_once(&cache_key_once, make_cache_key);
  pthread_setspecific(cache_key, pool);
  cache_noted = true;
}

static void release_shared_pool(void);

__attribute__((destructor)) static void release_main_cache(void) {
  release_cache(NULL);
  release_shared_pool();
}

static void give_shared(ParadChunk *c);

/* A chunk the thread's next tapes may use. A tape's chunk another thread took (a task's tape reversed by
 * another thread, split mode's sweeps on two threads) goes back to the pool of all threads: pooled here, it
 * piled up while the thread recording the tapes made new ones (98 KB more per gradient of 250 tasks). */
static void pool_chunk(ParadTape *t, ParadChunk *c) {
  if (t) {
    t->bytes -= sizeof *c + c->size;
    if (c->prev || t->first_counted) __parad_rt_tape_budget_give(sizeof *c + c->size); /* see free_chunks */
    if (c->owner != (void *)pool) {
      give_shared(c);
      return;
    }
  }
  if (pooled + sizeof *c + c->size > POOL_AT_MOST) {
    free(c);
    return;
  }
  c->next = pool[size_class(c->size)];
  pool[size_class(c->size)] = c;
  pooled += sizeof *c + c->size;
  note_cache();
}

/* A zeroed block of count * size bytes at an address a multiple of align, pooled where one is. Every kind
 * of shadow is given back to the same pool, realloc's and aligned_alloc's too: made elsewhere, those
 * filled the pool with blocks no request took, 300-430 KB more each time a gradient ran (up to the pool's
 * 2 GiB). An aligned request takes a block that happens to be aligned: its own, given back. */
static void *pooled_shadow(size_t count, size_t size, size_t align) {
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes)) return NULL;
  if (bytes >= SMALL_SHADOW)
    /* a block of its own class or the next (not a far larger one: the next large request would miss it) */
    for (int k = size_class(bytes); k < SIZE_CLASSES && k <= size_class(bytes) + 1; k++)
      for (void **p = &shadow_pool[k]; *p; p = (void **)*p) {
        void *b = *p;
        size_t usable = malloc_usable_size(b);
        if (usable < bytes || (uintptr_t)b % align) continue;
        *p = *(void **)b;
        pooled -= usable;
        return memset(b, 0, bytes);
      }
  if (align <= 16) return calloc(count, size);
  void *b = aligned_alloc(align, (bytes + align - 1) / align * align); /* a multiple of the alignment */
  return b ? memset(b, 0, bytes) : NULL;
}

void *__parad_rt_shadow_alloc(size_t count, size_t size) {
  void *b = pooled_shadow(count, size, 16);
  __parad_rt_shadow_born(b);
  return b;
}

/* A stack slot's shadow in split mode (its reverse sweep gives it back): the checkpointing runtime
 * notes it, since a step it runs with its tape dropped has no reverse sweep. */
void *__parad_rt_shadow_alloca(size_t bytes, size_t align) {
  /* never the program's to free: not noted as born (freed_copies.c); a slot aligned past malloc's (a
     vector of 4 doubles, loaded with vmovapd) gets its alignment, and may be pooled for a smaller one */
  void *b = pooled_shadow(1, bytes, align > 16 ? align : 16);
  __parad_rt_ckpt_track(b, __parad_rt_shadow_give);
  return b;
}

void *__parad_rt_shadow_alloc_aligned(size_t size, size_t align) {
  if (align < sizeof(void *)) align = sizeof(void *);
  void *p = pooled_shadow(1, size ? size : 1, align);
  __parad_rt_shadow_born(p);
  return p;
}

void *__parad_rt_shadow_new(void *(*alloc)(size_t), size_t bytes) {
  void *p = alloc(bytes);
  __parad_rt_shadow_born(p);
  return p ? memset(p, 0, bytes) : NULL;
}

void __parad_rt_shadow_give(void *shadow) {
  size_t usable = shadow ? malloc_usable_size(shadow) : 0;
  if (usable < SMALL_SHADOW || pooled + usable > POOL_AT_MOST) {
    free(shadow);
    return;
  }
  int k = size_class(usable);
  *(void **)shadow = shadow_pool[k];
  shadow_pool[k] = shadow;
  pooled += usable;
  note_cache();
}

/* What a tape holds besides its records: shadows of freed blocks, parallel regions. */
static void release_contents(ParadTape *t) {
  __parad_rt_moves_hand_back(t); /* before the old shadows are freed */
  __parad_rt_freed_copies_hand_back(t);
  __parad_rt_release_now(t);
  for (size_t i = 0; i < t->nlater; i++) __parad_rt_shadow_give(t->later[i]);
  t->nlater = 0;
  t->nmoves = 0;
  for (size_t i = 0; i < t->nregions; i++) __parad_rt_region_free(t->regions[i]); /* defined when there are any */
  t->nregions = 0;
  t->last_region = NULL;
  t->chain_to = NULL;
  t->ntickets = 0;
  free(t->split_shadows);
  t->split_shadows = NULL;
  t->nsplit_shadows = 0;
}

/* Scratch blocks (a region's copies and private buffers) are often given back by another thread than the
 * one that took them (the last of the threads sharing a copy): pooled where they are given, they piled up
 * there while the taking thread made new ones, and a gradient with a parallel region, computed again and
 * again, grew without end. A thread that has given back more than it took (by SURPLUS_AT_MOST) hands the
 * rest to a pool of all threads, which a thread whose own pool has nothing looks in before allocating. */
enum { SURPLUS_AT_MOST = 128 << 10 };
static _Thread_local long long surplus; /* scratch bytes this thread gave back, less those it took */
static pthread_mutex_t shared_mu = PTHREAD_MUTEX_INITIALIZER;
static ParadChunk *shared_pool[SIZE_CLASSES];
static size_t shared_pooled, shared_count; /* shared_count read without the lock: a hint */

static void release_shared_pool(void) {
  for (int k = 0; k < SIZE_CLASSES; k++)
    for (ParadChunk *c = shared_pool[k], *n; c; c = n) {
      n = c->next;
      free(c);
    }
}

static ParadChunk *take_shared(size_t size) {
  ParadChunk *c = NULL;
  if (!__atomic_load_n(&shared_count, __ATOMIC_RELAXED)) return NULL;
  pthread_mutex_lock(&shared_mu);
  if ((c = take_from(shared_pool, size))) {
    shared_pooled -= sizeof *c + c->size;
    __atomic_fetch_sub(&shared_count, 1, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&shared_mu);
  return c;
}

static void give_shared(ParadChunk *c) {
  size_t bytes = sizeof *c + c->size;
  pthread_mutex_lock(&shared_mu);
  bool kept = shared_pooled + bytes <= POOL_AT_MOST;
  if (kept) {
    c->next = shared_pool[size_class(c->size)];
    shared_pool[size_class(c->size)] = c;
    shared_pooled += bytes;
    __atomic_fetch_add(&shared_count, 1, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&shared_mu);
  if (!kept) free(c);
}

void *__parad_rt_scratch_take(size_t size) {
  ParadChunk *c = take_pooled(size);
  if (!c) c = take_shared(size);
  if (!c && !(c = new_sized(size))) return NULL;
  surplus -= (long long)(sizeof *c + c->size);
  return fresh(c)->data;
}

void __parad_rt_scratch_give(void *data) {
  if (!data) return;
  ParadChunk *c = (ParadChunk *)((char *)data - offsetof(ParadChunk, data));
  size_t bytes = sizeof *c + c->size;
  surplus += (long long)bytes;
  if (surplus <= SURPLUS_AT_MOST) {
    pool_chunk(NULL, c);
    return;
  }
  surplus -= (long long)bytes;
  give_shared(c);
}

void __parad_rt_tape_discard(ParadTape *t) {
  release_contents(t);
  free_tape(t);
}

/* Split forward mode's end (ad/split_forward.c): the augmented forward call's tape, if any, freed. */
void __parad_rt_tape_drop(ParadTape *t) {
  if (!t) return;
  __parad_rt_split_reversed(t);
  __parad_rt_tape_discard(t);
}

size_t __parad_rt_tape_first_chunk(void) { return __parad_rt_tape_budget_limit() ? FIRST_CHUNK_BUDGETED : FIRST_CHUNK; }

ParadTape *__parad_rt_tape_begin(void) {
  ParadTape *t = spare;
  spare = NULL;
  if (t && t->chunk->size > 2 * __parad_rt_tape_first_chunk()) { /* a budget set since: a small one instead */
    free_tape(t);
    t = NULL;
  }
  /* A tape's first chunk counts against the budget only while one is set: the two atomic updates of the
     count, at every begin and end, were a third of a small gradient's fixed cost, and without a budget
     nothing reads the count. */
  bool counted = __parad_rt_tape_budget_limit() != 0;
  if (t && counted) __parad_rt_tape_budget_take(sizeof(ParadChunk) + t->chunk->size);
  if (!t) {
    t = calloc(1, sizeof *t);
    if (!t) fatal("out of memory for a tape");
    enter(t, new_chunk(t, __parad_rt_tape_first_chunk()));
    if (!counted) __parad_rt_tape_budget_give(sizeof(ParadChunk) + t->chunk->size);
  }
  t->first_counted = counted;
  t->top = t->base;
  t->used_before = 0;
  t->region = NULL;
  t->task = NULL;
  t->last_region = NULL;
  t->chain_to = NULL;
  t->split_open = 0;
  t->prev = __parad_rt_current;
  __parad_rt_current = t;
  return t;
}

void __parad_rt_tape_mark_peak(ParadTape *t) {
  size_t used = t->used_before + (size_t)(t->top - t->base);
  if (used > t->peak) t->peak = used;
  if (used + thread_extra > thread_peak) thread_peak = used + thread_extra;
  if (!own_recorded.listed) {
    pthread_mutex_lock(&recorders_mu);
    own_recorded.next = recorders;
    recorders = &own_recorded;
    own_recorded.listed = true;
    pthread_mutex_unlock(&recorders_mu);
    note_cache(); /* its destructor unlists it */
  }
  __atomic_store_n(&own_recorded.bytes, __atomic_load_n(&own_recorded.bytes, __ATOMIC_RELAXED) + used,
                   __ATOMIC_RELAXED);
}

void __parad_rt_tape_suspend(ParadTape *t) {
  if (__parad_rt_current != t) fatal("split mode: the tape being suspended is not the current one");
  __parad_rt_tape_mark_peak(t);
  __parad_rt_current = t->prev;
}

void __parad_rt_tape_resume(ParadTape *t) {
  if (!t) fatal("split mode: __parad_reverse was given no tape (a null pointer)");
  t->prev = __parad_rt_current;
  __parad_rt_current = t;
}

/* A tape whose records are done with: its first chunk kept as the thread's spare tape, the others pooled. */
static void retire(ParadTape *t) {
  release_contents(t);
  /* the tape's first chunk stays with it (the thread's spare tape), the others go to the pool */
  ParadChunk *first = t->chunk;
  for (ParadChunk *d = first->next, *n; d; d = n) {
    n = d->next;
    pool_chunk(t, d);
  }
  first->next = NULL;
  if (!spare) {
    spare = t; /* a spare's chunk does not count */
    if (t->first_counted) __parad_rt_tape_budget_give(sizeof(ParadChunk) + first->size);
    t->first_counted = false;
    note_cache();
  } else {
    pool_chunk(t, first);
    t->chunk = NULL;
    __parad_rt_freed_copies_free(t);
    free(t->later);
    free(t->moves);
    free(t->regions);
    free(t->tickets);
    free(t->actions);
    free(t);
  }
}

void __parad_rt_tape_end(ParadTape *t) {
  if (__parad_rt_current != t) fatal("the tape being ended is not the current one");
  /* read back to the start of a chunk that is not the first: the chunks before must be empty too */
  while (t->top == t->base && t->chunk->prev) t->top = __parad_rt_tape_back(t);
  if (t->top != t->base || t->chunk->prev)
    fatal("the reverse sweep did not read back everything its forward sweep recorded");
  __parad_rt_current = t->prev;
  retire(t);
}

void __parad_rt_tape_recycle(ParadTape *t) {
  ParadChunk *first = t->chunk;
  while (first->prev) first = first->prev; /* not read back: from its first chunk on */
  enter(t, first);
  retire(t);
}

char *__parad_rt_tape_grow(ParadTape *t, size_t n) {
  ParadChunk *c = t->chunk;
  c->used = t->top;
  t->used_before += (size_t)(t->top - t->base);
  ParadChunk *next = c->next;
  if (!next || next->size < n) {
    if (next) { /* too small for this record: the chunks after go to the pool */
      for (ParadChunk *d = next, *after; d; d = after) {
        after = d->next;
        pool_chunk(t, d);
      }
    }
    size_t size = c->size < LARGEST_STEP ? 2 * c->size : c->size, limit = __parad_rt_tape_budget_limit();
    if (limit) { /* near the budget, a chunk no bigger than what it leaves: a tape of 1.6 MB under a budget
                    of 4 MB was refused as it took a chunk of 2 MB more after 2 MB in chunks */
      size_t held = __parad_rt_tape_budget_held() + sizeof(ParadChunk), left = limit > held ? limit - held : 0;
      if (size > left) size = left > c->size ? left : c->size;
    }
    if (size < n) size = n;
    next = new_chunk(t, size);
    next->prev = c;
    c->next = next;
  }
  enter(t, next);
  return t->base;
}

char *__parad_rt_tape_back(ParadTape *t) {
  ParadChunk *c = t->chunk;
  if (!c->prev) fatal("tape underflow: a reverse sweep read more than its forward sweep recorded");
  enter(t, c->prev);
  t->used_before -= (size_t)(t->chunk->used - t->base);
  return t->chunk->used;
}

void __parad_rt_tape_push(ParadTape *t, const void *data, size_t n) {
  char *at = t->top;
  if (at + n > t->end) at = __parad_rt_tape_grow(t, n);
  memcpy(at, data, n);
  t->top = at + n;
}

void __parad_rt_tape_pop(ParadTape *t, void *data, size_t n) {
  char *at = t->top;
  if (at == t->base) at = __parad_rt_tape_back(t);
  at -= n;
  memcpy(data, at, n);
  t->top = at;
}

_Thread_local ParadTape *__parad_rt_current_tangent;

/* A chunk of exactly size bytes (the pool may hold bigger ones): a twin's chunks match its tape's. */
static ParadChunk *exact_chunk(size_t size) {
  __parad_rt_tape_budget_take(sizeof(ParadChunk) + size);
  ParadChunk *c = alloc_chunk(sizeof *c + size);
  if (!c) fatal("out of memory for the tangent of a tape");
  c->size = size, c->owner = (void *)pool;
  c->prev = c->next = NULL;
  c->used = NULL;
  return c;
}

ParadTape *__parad_rt_twin_begin(ParadTape *t) {
  ParadTape *twin = calloc(1, sizeof *twin);
  if (!twin) fatal("out of memory for the tangent of a tape");
  enter(twin, exact_chunk(t->chunk->size));
  twin->first_counted = true;
  twin->top = twin->base + (t->top - t->base);
  twin->prev = __parad_rt_current_tangent;
  __parad_rt_current_tangent = twin;
  return twin;
}

char *__parad_rt_twin_grow(ParadTape *twin, ParadTape *t) {
  ParadChunk *c = twin->chunk, *next = c->next;
  c->used = twin->top;
  twin->used_before += (size_t)(twin->top - twin->base); /* for __parad_rt_tape_back, shared with tapes */
  if (!next || next->size != t->chunk->size) {
    for (ParadChunk *d = next, *after; d; d = after) {
      after = d->next;
      __parad_rt_tape_budget_give(sizeof *d + d->size);
      free(d);
    }
    next = exact_chunk(t->chunk->size);
    next->prev = c;
    c->next = next;
  }
  enter(twin, next);
  return twin->base;
}

void __parad_rt_twin_end(void) {
  ParadTape *twin = __parad_rt_current_tangent;
  if (!twin) fatal("no tangent tape to end");
  __parad_rt_current_tangent = twin->prev;
  free_tape(twin);
}

int __parad_rt_tape_handle_size(void) { return (int)sizeof(ParadTape *); }

void __parad_rt_tape_note_extra(size_t bytes) {
  thread_extra = bytes;
  ParadTape *t = __parad_rt_current;
  size_t used = t ? t->used_before + (size_t)(t->top - t->base) : 0;
  if (used + bytes > thread_peak) thread_peak = used + bytes;
}

size_t parad_tape_peak_bytes(void) { return thread_peak; }
size_t parad_tape_recorded_bytes(void) {
  pthread_mutex_lock(&recorders_mu);
  size_t sum = recorded_by_gone;
  for (struct recorder *r = recorders; r; r = r->next) sum += __atomic_load_n(&r->bytes, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&recorders_mu);
  return sum;
}

void parad_tape_reset_peak(void) {
  thread_peak = 0;
  pthread_mutex_lock(&recorders_mu);
  recorded_by_gone = 0;
  for (struct recorder *r = recorders; r; r = r->next) __atomic_store_n(&r->bytes, 0, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&recorders_mu);
}
