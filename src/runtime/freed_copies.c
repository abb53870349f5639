/* Blocks the caller passed in that the program copied and then freed: a vector given by reference grows
 * (`v.push_back` moves the elements to a new block and deletes the old one), or a C program does the
 * same by hand with malloc, memcpy and free.
 *
 * The reverse sweep adds the adjoints of the elements into the old block's shadow, which is the caller's
 * own (the shadow the caller passed), and that shadow goes with the tape, as the program freed the
 * block. The caller's shadow object now leads to the new block's shadow, where the copy's reverse left
 * zeros: without this file, a gradient of zeros and no message. As the tape ends, after its reverse
 * sweep, the adjoints go the way the elements went, copy by copy in the program's order, as realloc's
 * do (memory.c).
 *
 * What it needs to know: which freed shadows were the caller's (not allocated while the tape was
 * current: the `born` set), and which copies read from freed blocks (noted by the reverse of each copy,
 * and only once the caller's block has been freed). A copy whose target is itself freed and never copied
 * on is a temporary: it gets nothing. Blocks the derivative allocated and freed pass on only what reached
 * them from the caller's: what else their shadows hold is the adjoint of memory the program never
 * wrote (calloc's zeros), not of an input. Copies made element by element (a loop) leave no record,
 * and their adjoints are lost with the block: for a block known to hold floats, the runtime says so
 * (`lost`). A block a parallel region allocated, which its function frees after the region (a region's
 * `single` makes it), is asked of the region's threads' tapes too, which live on, suspended, until the
 * region's reverse sweep; a block freed in a region that the enclosing code allocated still counts as the
 * caller's: only the thread's own tape is asked. */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tape.h"

struct Gone {
  char *shadow;
  size_t size;
  bool callers;   /* not allocated while the tape was current */
  bool passes_on; /* some noted copy reads from it */
  int floats;     /* it holds floats of this width only (0: other data too, or not known) */
};

struct Copy {
  char *d, *s; /* the copy's target and source shadows */
  size_t bytes;
  int kind;
  size_t period, phase; /* COPY_FIELDS: the layout, as __parad_rt_copy_adjoint_fields has it */
  const unsigned *runs;
  unsigned nruns;
};

/* The shadows born last, not yet in the `born` set: most blocks a step allocates it frees before the next
 * (an RK4 step's temporaries), and the set, grown to every block the gradient allocated and its slots
 * spread over megabytes, took a fifth of such a gradient. A free finds its block here and takes it out;
 * the oldest go into the set as more are born. */
enum { RECENT_BORN = 32 };

struct ParadFreedCopies {
  void **born; /* open addressing, a power of two slots */
  size_t nborn, capborn;
  void *recent[RECENT_BORN];
  unsigned nrecent;
  struct Gone *gone;
  size_t ngone, capgone, callers;
  bool sorted;
  struct Copy *copies;
  size_t ncopies, capcopies;
};

static void fatal(const char *what) {
  fprintf(stderr, "parad runtime: %s\n", what);
  abort();
}

static void *grow(void *p, size_t *cap, size_t want, size_t size) {
  if (want <= *cap) return p;
  *cap = *cap ? 2 * *cap : 16;
  if (*cap < want) *cap = want;
  if (!(p = realloc(p, *cap * size))) fatal("out of memory");
  return p;
}

static struct ParadFreedCopies *of(ParadTape *t) {
  if (!t->freed_copies && !(t->freed_copies = calloc(1, sizeof *t->freed_copies))) fatal("out of memory");
  return t->freed_copies;
}

static size_t slot_of(void *p, size_t cap) { return ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15u >> 7 & (cap - 1); }

static void born_put(struct ParadFreedCopies *f, void *p) {
  if (2 * (f->nborn + 1) > f->capborn) { /* rehash into twice the slots */
    size_t cap = f->capborn ? 2 * f->capborn : 64;
    void **slots = calloc(cap, sizeof *slots);
    if (!slots) fatal("out of memory");
    for (size_t i = 0; i < f->capborn; i++)
      if (f->born[i]) {
        size_t k = slot_of(f->born[i], cap);
        while (slots[k]) k = (k + 1) & (cap - 1);
        slots[k] = f->born[i];
      }
    free(f->born);
    f->born = slots, f->capborn = cap;
  }
  size_t k = slot_of(p, f->capborn);
  while (f->born[k] && f->born[k] != p) k = (k + 1) & (f->capborn - 1);
  if (!f->born[k]) f->born[k] = p, f->nborn++;
}

static bool born_has(struct ParadFreedCopies *f, void *p) {
  if (!f->capborn) return false;
  for (size_t k = slot_of(p, f->capborn); f->born[k]; k = (k + 1) & (f->capborn - 1))
    if (f->born[k] == p) return true;
  return false;
}

static int recent_index(struct ParadFreedCopies *f, void *p) {
  for (unsigned i = f->nrecent; i-- > 0;)
    if (f->recent[i] == p) return (int)i;
  return -1;
}

static bool born_here(struct ParadFreedCopies *f, void *p) { return recent_index(f, p) >= 0 || born_has(f, p); }

int __parad_rt_shadow_born_on(ParadTape *t, const void *shadow) { return t->freed_copies && born_here(t->freed_copies, (void *)shadow); }

/* omp.c's, linked where the program has parallel regions (the only ones that run regions on a tape) */
extern int __parad_rt_regions_born(ParadTape *t, const void *shadow, int depth) __attribute__((weak));

void __parad_rt_shadow_born(void *shadow) {
  ParadTape *t = __parad_rt_current;
  if (!t || !shadow) return;
  struct ParadFreedCopies *f = of(t);
  if (f->nrecent == RECENT_BORN) { /* the oldest half into the set */
    for (unsigned i = 0; i < RECENT_BORN / 2; i++) born_put(f, f->recent[i]);
    memmove(f->recent, f->recent + RECENT_BORN / 2, sizeof(void *) * (RECENT_BORN / 2));
    f->nrecent = RECENT_BORN / 2;
  }
  f->recent[f->nrecent++] = shadow;
}

void __parad_rt_program_freed(ParadTape *t, void *shadow, int float_width) {
  if (!t || !shadow) return;
  struct ParadFreedCopies *f = of(t);
  f->gone = grow(f->gone, &f->capgone, f->ngone + 1, sizeof *f->gone);
  int recent = recent_index(f, shadow); /* freed once: its birth is asked no more */
  if (recent >= 0) f->recent[recent] = f->recent[--f->nrecent];
  bool callers = recent < 0 && !born_has(f, shadow) && !(t->nregions && __parad_rt_regions_born && __parad_rt_regions_born(t, shadow, 3));
  f->gone[f->ngone++] = (struct Gone){shadow, malloc_usable_size(shadow), callers, false, float_width};
  f->callers += callers;
  f->sorted = false;
}

static int by_address(const void *a, const void *b) {
  const struct Gone *x = a, *y = b;
  return x->shadow < y->shadow ? -1 : x->shadow > y->shadow;
}

/* The freed block that holds [p, p + bytes), or NULL. */
static struct Gone *gone_holding(struct ParadFreedCopies *f, const char *p, size_t bytes) {
  if (!f->sorted) {
    qsort(f->gone, f->ngone, sizeof *f->gone, by_address);
    f->sorted = true;
  }
  size_t lo = 0, hi = f->ngone; /* the last block starting at or before p */
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (f->gone[mid].shadow <= p) lo = mid + 1;
    else hi = mid;
  }
  if (!lo) return NULL;
  struct Gone *g = &f->gone[lo - 1];
  return p + bytes <= g->shadow + g->size ? g : NULL;
}

void __parad_rt_note_copy(char *d, char *s, size_t bytes, int kind, size_t period, size_t phase, const unsigned *runs,
                          unsigned nruns) {
  ParadTape *t = __parad_rt_current;
  struct ParadFreedCopies *f = t ? t->freed_copies : NULL;
  if (!f || !f->callers || !s || !bytes || !gone_holding(f, s, bytes)) return;
  f->copies = grow(f->copies, &f->capcopies, f->ncopies + 1, sizeof *f->copies);
  f->copies[f->ncopies++] = (struct Copy){d, s, bytes, kind, period, phase, runs, nruns};
}

/* c's source's adjoints into its target (to 0: reset only); the source's reset. */
static void pass(struct Copy *c, char *to) {
  switch (c->kind) {
  case COPY_F64: __parad_rt_move_adjoint_f64((double *)c->s, (double *)to, c->bytes); break;
  case COPY_F32: __parad_rt_move_adjoint_f32((float *)c->s, (float *)to, c->bytes); break;
  default: __parad_rt_move_adjoint_fields(c->s, to, c->bytes, c->period, c->phase, c->runs, c->nruns);
  }
}

/* A caller's block of floats whose shadow still holds adjoints once they have been handed on: lost with
 * it (copied element by element, or read and freed). Said once. The last 16 bytes are not looked at:
 * malloc's slack past the size the caller asked for may hold anything. */
static void lost(struct ParadFreedCopies *f) {
  static int said;
  for (size_t i = 0; i < f->ngone && !__atomic_load_n(&said, __ATOMIC_RELAXED); i++) {
    struct Gone *g = &f->gone[i];
    if (!g->callers || !g->floats || g->size <= 16) continue;
    size_t n = (g->size - 16) / (size_t)g->floats, nonzero = 0;
    for (size_t k = 0; k < n; k++)
      nonzero += g->floats == 8 ? ((double *)g->shadow)[k] != 0 : ((float *)g->shadow)[k] != 0;
    if (nonzero && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
      fprintf(stderr,
              "parad runtime: warning: the differentiated function freed a block of floats the caller passed in "
              "(%zu bytes) and its contents' adjoints are lost with it (%zu nonzero): they go on only where the "
              "program copied the block whole (memcpy, memmove, a std::vector's growth), not where it copied "
              "element by element or only read it\n",
              g->size, nonzero);
  }
}

void __parad_rt_freed_copies_hand_back(ParadTape *t) {
  struct ParadFreedCopies *f = t->freed_copies;
  if (!f) return;
  if (f->ncopies) {
    for (size_t i = 0; i < f->ncopies; i++) gone_holding(f, f->copies[i].s, f->copies[i].bytes)->passes_on = true;
    for (size_t i = 0; i < f->ncopies; i++) /* the derivative's own blocks pass on only what the caller's give them */
      if (!gone_holding(f, f->copies[i].s, f->copies[i].bytes)->callers) pass(&f->copies[i], NULL);
    for (size_t i = f->ncopies; i-- > 0;) { /* noted by the reverse sweep: the program's order backwards */
      struct Copy *c = &f->copies[i];
      struct Gone *target = gone_holding(f, c->d, c->bytes);
      if (!target || target->passes_on) pass(c, c->d);
    }
  }
  if (f->callers) lost(f);
  f->nborn = f->ngone = f->callers = f->ncopies = 0, f->nrecent = 0;
  if (f->capborn > 4096) { /* a tape that allocated much: the next may not */
    free(f->born);
    f->born = NULL, f->capborn = 0;
  } else if (f->capborn)
    memset(f->born, 0, f->capborn * sizeof *f->born);
}

void __parad_rt_freed_copies_free(ParadTape *t) {
  struct ParadFreedCopies *f = t->freed_copies;
  if (!f) return;
  free(f->born);
  free(f->gone);
  free(f->copies);
  free(f);
  t->freed_copies = NULL;
}
