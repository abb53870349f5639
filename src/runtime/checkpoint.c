/* Checkpointed loops (ad/checkpoint.c builds the calls into this): the forward sweep runs the steps of a
 * loop the program marked with __parad_checkpoint_loop() keeping snapshots of the state at spaced steps
 * instead of the steps' tapes; the reverse sweep reverses the steps last to first, each recomputed from the
 * nearest snapshot before it and taped just before its reverse. Within the stretch between two snapshots
 * of the forward sweep the reverse places snapshots of its own by revolve's binomial rule (Griewank and
 * Walther): with s free snapshots and t the smallest number with C(s + t, s) >= the stretch's length, no
 * step runs more than t extra times.
 *
 * A step's state:
 * - the loop's variables (the stack slots of the function around the loop that the loop uses): the steps
 *   run on a copy of them owned here, which outlives the function's frame (the reverse sweep runs after it
 *   returned); snapshots copy them whole, with the shadows of the slots that hold pointers (a step that
 *   swaps two arrays swaps their shadows too);
 * - the memory the steps write elsewhere: each store of a step notes its address (__parad_rt_ckpt_note)
 *   against the hull of the addresses that store wrote through the same base pointer (C keeps pointer
 *   arithmetic inside the object, so a hull never covers another object's bytes). A snapshot copies the
 *   hulls; a store outside every hull grows one, and first logs the bytes the hull gains into every live
 *   snapshot, so that each snapshot holds, for every byte written since it was taken, its value then;
 * - the memory the steps only read: the program may overwrite it after the loop, before the reverse sweep
 *   recomputes the steps, so loads note their hulls too; the bytes they cover are copied once, when the
 *   loop ends, put back for the reverse sweep of the loop, and the program's later values after it.
 * What notes no address (a step's own stack) is not state. A step may run parallel regions: then each
 * site holds a hull set per thread (ad/checkpoint_notes.c), and the slow path of a note takes a lock. */
#define _GNU_SOURCE /* pthread_getattr_np: a thread's stack */
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tape.h"

/* One store or load of a step: the hulls of the addresses it accessed, one per base pointer, the most
 * recently grown first. Generated code allocates it zeroed (ad/checkpoint_notes.c: 14 words, or 17 times
 * that in a step that runs parallel regions). */
enum { HULLS = 4 };
typedef struct {
  char *base, *lo, *hi;
} Hull;
typedef struct ParadSite {
  Hull h[HULLS];
  struct ParadSite *next; /* the sites noted since the loop began */
  int64_t kind;           /* 0: not listed; 1: a store's; 2: a load's */
} ParadSite;
_Static_assert(sizeof(ParadSite) == 14 * 8, "ad/checkpoint.c allocates sites of 14 words");

/* The loop's variables, described by generated code: bytes, and whether the slot holds pointers (1), which
 * the loop only swaps among its variables (2: a step run as the program runs it leaves their shadows to
 * follow, from the pairs of pointer and shadow the variables held when the loop began; 3: the same for a
 * temporary of the swap, whose value when the loop begins is no pointer to pair); into: whether they may
 * point into another of the variables. */
typedef struct {
  uint64_t size, pointers, into;
} ParadEnvSlot;

/* What generated code calls per step: runs the step on closure = {variables..., their shadows..., &code}. */
typedef void (*ParadStep)(void **closure);

typedef struct {
  char *at;
  size_t len, off;
} Piece;

typedef struct {
  char *lo, *hi;
} Range;

typedef struct {
  Piece *p;
  size_t n, cap;
  char *data;
  size_t used, size;
} Pieces;

typedef struct Snapshot {
  long step;          /* the state before this step */
  Pieces taken, log;  /* copied when taken (the loop's variables first, packed: vars_copy); bytes first
                         written after */
  struct Snapshot *next_live, *prev_live;
  size_t bytes;
  bool pooled;        /* the snapshot and what it took are one block of the tape chunks' pool (else malloc's) */
} Snapshot;

typedef struct Ckpt {
  const ParadEnvSlot *slots;
  int nenv;
  void **closure; /* the steps' variables, their shadows, &code */
  char **zeroed;  /* shadows made here for variables the caller gave none */
  int64_t code[8]; /* the exit a step took (as an int), then the lengths of variable-length arrays */
  int64_t *more;   /* when there are more than 7 of them */
  Snapshot **at;  /* the forward sweep's snapshots, by step */
  size_t nat, capat;
  long interval;  /* the forward sweep snapshots every interval-th step */
  long steps;
  Pieces inputs;  /* the bytes the steps only read, as the loop left them */
  Snapshot *live; /* every snapshot alive: each logs what the steps first write after it */
  long (*agree)(long); /* with MPI in the steps: the least of a value over the ranks */
  bool nested;    /* the steps run checkpointed loops, whose snapshots need room beside this one's */
  bool primal;    /* advance runs a step as the program does: the shadows of swapped pointers follow here */
  bool threads;   /* the steps run parallel regions or tasks, whose threads find the step as `running` */
  bool orphans;   /* the steps create tasks outside their own regions */
  bool forward;   /* the forward sweep is running the steps */
  size_t snapshot_bytes;
  size_t typical;   /* bytes of the last snapshot taken (its log not counted) */
  size_t hulls_known, hulls_grown; /* hull_bytes as last counted, and what the hulls grew by since */
  int hulls_age;    /* hull_bytes asked since it last counted */
  size_t step_tape; /* the most chunk bytes one step's tape held */
  ParadSite *sites;
  long runs, most_snapshots, nlive; /* for PARAD_CHECKPOINT_STATS */
  char *stack;      /* the frame that runs the steps: the stack below it is the step's own, no state */
  char *stack_lo;   /* the lowest address of that thread's stack */
  Range *pairs;     /* pointers the variables held when the loop began (lo) and their shadows (hi) */
  size_t npairs, cappairs;
  Range *evicted;   /* hulls sites gave way for (still the steps' memory: the copies at the loop's ends) */
  int *evicted_kind; /* 1 a store's, 2 a load's */
  size_t nevicted, capevicted;
  size_t *by_start, nby_start; /* evicted by kind and first byte: open addressing, index + 1, 0 empty */
  ParadTape *outer; /* the tape the loop runs on (the steps' own are dropped or reversed at once) */
  struct Ckpt *up;  /* the loop whose step runs this one, if any */
  Range *fresh;     /* heap blocks the step running now allocated */
  size_t nfresh, capfresh;
  struct Kept { void *p; void (*release)(void *); } *kept; /* what the step running now made for its */
  size_t nkept, capkept; /* reverse sweep (a stack slot's shadow, an MPI call's record): a dropped tape's go */
} Ckpt;

static _Thread_local Ckpt *active;
/* The loop whose step runs parallel regions or tasks and is running now, for their threads (whose
 * `active` is not set): set only where the loop runs outside any parallel region of the program, so the
 * only other threads at work are the step's. (Inside one, its regions run on its own thread: checked.)
 * The slow path of a note takes the lock. */
static Ckpt *running;
static pthread_mutex_t notes_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local char *thread_stack_lo, *thread_stack_hi; /* the calling thread's stack */
static _Thread_local long last_steps, last_runs; /* parad_checkpoint_counts */
/* Loops whose reverse sweep is still to come, and the blocks the program freed meanwhile: a snapshot or a
 * recomputed step may still need them. For all threads at once: the loops each thread of a region runs
 * may work on one block, which one thread frees after the region. */
static long pending;
typedef struct {
  void *p;
  bool shadow_gone;        /* its shadow handed to a tape to free */
  void (*release)(void *); /* C++'s plain delete of a block new made; NULL: free */
} Deferred;
static Deferred *deferred;
static size_t ndeferred, capdeferred;
static pthread_mutex_t deferred_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what) {
  fprintf(stderr, "parad runtime: checkpointed loop: %s\n", what);
  exit(70);
}

static void *grow(void *p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return p;
  size_t c = *cap ? *cap : 16;
  while (c < need) c *= 2;
  p = realloc(p, c * elem);
  if (!p) fail("out of memory for snapshots");
  *cap = c;
  return p;
}

static bool loops_pending(void) { return __atomic_load_n(&pending, __ATOMIC_ACQUIRE) != 0; }

/* p freed by `release` (C++'s plain delete of a block new made), or by free where that is NULL. */
static void release_block(void *p, void (*release)(void *)) {
  if (release)
    release(p);
  else
    free(p);
}

/* p freed (or moved) while loops are pending: it goes (by `release`) when the last of them is done.
 * Returns whether the caller, which has a shadow of p when `shadow`, is to hand it over: the first such
 * caller only (a recomputed step frees the block again; a step run as the program runs it frees it without
 * a shadow, and its augmented run in the reverse sweep with one). */
static bool defer_free(void *p, bool shadow, void (*release)(void *)) {
  pthread_mutex_lock(&deferred_lock);
  size_t i = 0;
  while (i < ndeferred && deferred[i].p != p) i++;
  if (i == ndeferred) {
    deferred = grow(deferred, &capdeferred, ndeferred + 1, sizeof *deferred);
    deferred[ndeferred++] = (Deferred){p, false, release};
  }
  bool hand = shadow && !deferred[i].shadow_gone;
  deferred[i].shadow_gone |= shadow;
  pthread_mutex_unlock(&deferred_lock);
  return hand;
}

/* Room for `need` bytes of copies, at least `least` more than now when it must grow. The copies live in
 * the pool of tape chunks: a loop's snapshots, taken anew by every gradient, faulted in fresh pages each
 * time (malloc gave them back to the system at the loop's end), a third of a checkpointed gradient's time. */
static void data_room(Pieces *ps, size_t need, size_t least) {
  if (need <= ps->size) return;
  size_t size = ps->size + least > need ? ps->size + least : need;
  char *data = __parad_rt_scratch_take(size);
  if (!data) fail("out of memory for snapshots");
  if (ps->used) memcpy(data, ps->data, ps->used);
  __parad_rt_scratch_give(ps->data);
  ps->data = data, ps->size = size;
}

static void pieces_add(Pieces *ps, char *at, size_t len) {
  if (!len) return;
  data_room(ps, ps->used + len, ps->size > 16 ? ps->size : 16);
  memcpy(ps->data + ps->used, at, len);
  Piece *last = ps->n ? &ps->p[ps->n - 1] : NULL;
  if (last && last->at + last->len == at && last->off + last->len == ps->used) { /* a hull grown by one more */
    last->len += len;
  } else {
    ps->p = grow(ps->p, &ps->cap, ps->n + 1, sizeof *ps->p);
    ps->p[ps->n++] = (Piece){at, len, ps->used};
  }
  ps->used += len;
}

/* Room for exactly `bytes` more in `n` more pieces (what a snapshot is about to copy). */
static void pieces_reserve(Pieces *ps, size_t bytes, size_t n) {
  data_room(ps, ps->used + bytes, 0);
  if (ps->n + n > ps->cap) {
    ps->p = realloc(ps->p, (ps->n + n) * sizeof *ps->p);
    if (!ps->p && n) fail("out of memory for snapshots");
    ps->cap = ps->n + n;
  }
}

static void pieces_put_back(const Pieces *ps, bool latest_first) {
  for (size_t k = 0; k < ps->n; k++) {
    const Piece *p = &ps->p[latest_first ? ps->n - 1 - k : k];
    memcpy(p->at, ps->data + p->off, p->len);
  }
}


static void pieces_free(Pieces *ps) {
  free(ps->p);
  __parad_rt_scratch_give(ps->data);
  memset(ps, 0, sizeof *ps);
}

static size_t pieces_bytes(const Pieces *ps) { return ps->size + ps->cap * sizeof(Piece); }

/* ---- the budget: snapshots and step tapes together ---- */

static size_t budget(void) {
  size_t b = __parad_rt_tape_budget_limit();
  return b ? b : (size_t)1 << 30; /* without a budget, snapshots up to 1 GiB */
}

static void account(Ckpt *c, Snapshot *s, bool taken) {
  if (taken) {
    c->snapshot_bytes += s->bytes;
    __parad_rt_tape_budget_take(s->bytes);
  } else {
    c->snapshot_bytes -= s->bytes;
    __parad_rt_tape_budget_give(s->bytes);
  }
  __parad_rt_tape_note_extra(c->snapshot_bytes);
}

static size_t hull_bytes(Ckpt *c);

/* What must stay free beside the snapshots: one step's tape (a first chunk before it is known) and the
 * copies of the loop's inputs at its end and of the program's memory after it (at most the hulls each). */
static size_t reserve(Ckpt *c, int copies) {
  /* the chunks a tape takes depend on what the pool holds: up to twice a run's */
  size_t first = __parad_rt_tape_first_chunk() + 64; /* tape.c's first chunk, with its header */
  size_t tape = 2 * (c->step_tape > first ? c->step_tape : first);
  return tape + (size_t)copies * hull_bytes(c);
}

/* Whether the forward sweep may keep one more snapshot of about the size of the last: it takes at most
 * half of what the budget leaves beside the other tapes and the reserve, the rest is for the snapshots
 * the reverse sweep places between them. */
/* With MPI in the steps, every rank must run the same steps in the same order: each choice is agreed
 * with the other ranks (the least of theirs), by the MPI runtime's function. */
static long agreed(Ckpt *c, long v) { return c->agree ? c->agree(v) : v; }

static bool room_for_snapshot(Ckpt *c, size_t size) {
  size_t others = __parad_rt_tape_budget_limit() ? __parad_rt_tape_budget_held() - c->snapshot_bytes : 0, b = budget();
  size_t keep = others + reserve(c, 2);
  if (keep >= b) return false;
  return c->snapshot_bytes + size <= (b - keep) / 2;
}

/* ---- notes ---- */

/* The bytes logged into every live snapshot, then taken from the budget: where that goes over it, some
 * snapshots may give way (__parad_rt_ckpt_relieve), which they cannot while the list is gone through. */
static void log_bytes(Ckpt *c, char *at, size_t len) {
  size_t total = 0;
  for (Snapshot *s = c->live; s; s = s->next_live) {
    size_t before = pieces_bytes(&s->log);
    pieces_add(&s->log, at, len);
    size_t more = pieces_bytes(&s->log) - before;
    s->bytes += more;
    c->snapshot_bytes += more;
    total += more;
  }
  __parad_rt_tape_budget_take(total);
}

/* AddressSanitizer's detection of use after return gives functions frames of its own, off the thread's
 * stack, where the notes cannot tell a step's locals from the program's memory: they were snapshotted and
 * restored into frames since reused (ASan reported the copy). With a checkpointed loop, frames stay on the
 * stack (ASan reads this flag as each function is entered; absent without ASan). */
extern int __asan_option_detect_stack_use_after_return __attribute__((weak));

static void frames_on_stack(void) {
  if (&__asan_option_detect_stack_use_after_return) __asan_option_detect_stack_use_after_return = 0;
}

/* The calling thread's stack (once per thread). */
static void own_stack(void) {
  if (thread_stack_hi) return;
  pthread_attr_t attr;
  void *lo;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &attr)) return;
  if (!pthread_attr_getstack(&attr, &lo, &size)) thread_stack_lo = lo, thread_stack_hi = (char *)lo + size;
  pthread_attr_destroy(&attr);
}

static void note_locked(ParadSite *s, char *base, char *a, char *e, int kind);
static bool in_variables(Ckpt *c, char *a);

/* An access outside the hull grown last (kind: 1 a store's, 2 a load's). */
static __attribute__((noinline)) void note_slow(ParadSite *s, char *base, char *a, char *e, int kind) {
  Ckpt *c = active;
  if (!c) { /* a thread of a region the step runs: its own stack is no state */
    c = __atomic_load_n(&running, __ATOMIC_ACQUIRE);
    own_stack();
    if (!c || (a >= thread_stack_lo && a < thread_stack_hi)) return;
  }
  /* nor is the stack below the frame that runs the step (the step's and its helpers' locals), whichever
     thread writes it */
  /* (a null buffer: MPI's receive buffer on a rank that is not the root) */
  if (!a || (a < c->stack && a >= c->stack_lo) || in_variables(c, a)) return;
  pthread_mutex_lock(&notes_lock);
  note_locked(s, base, a, e, kind);
  pthread_mutex_unlock(&notes_lock);
}

/* The hulls given way, found by kind and first byte. A site cycling through more objects than it keeps
 * hulls (a C++ vector's elements, each its own base as operator[] returns it; a linked list's nodes) comes
 * back to each; a search of the whole list for each would cost its length. */
static size_t start_slot(const Ckpt *c, int kind, const char *lo) {
  return (size_t)(((uintptr_t)lo >> 3) * 0x9E3779B97F4A7C15ull ^ (uintptr_t)kind) & (c->nby_start - 1);
}

static void index_put(Ckpt *c, size_t i) {
  size_t m = c->nby_start - 1, h = start_slot(c, c->evicted_kind[i], c->evicted[i].lo);
  while (c->by_start[h]) h = (h + 1) & m;
  c->by_start[h] = i + 1;
}

/* Room for one more: the table kept at most half full, rebuilt as it doubles. */
static void index_room(Ckpt *c) {
  if (2 * (c->nevicted + 1) <= c->nby_start) return;
  free(c->by_start);
  c->nby_start = c->nby_start ? 2 * c->nby_start : 64;
  while (2 * (c->nevicted + 1) > c->nby_start) c->nby_start *= 2;
  c->by_start = calloc(c->nby_start, sizeof *c->by_start);
  if (!c->by_start) fail("out of memory for checkpoint notes");
  for (size_t i = 0; i < c->nevicted; i++) index_put(c, i);
}

/* The slot holding entry i. */
static size_t index_slot(const Ckpt *c, size_t i) {
  size_t m = c->nby_start - 1, h = start_slot(c, c->evicted_kind[i], c->evicted[i].lo);
  while (c->by_start[h] != i + 1) h = (h + 1) & m;
  return h;
}

/* Entry j leaves the list, the last entry taking its place. */
static void evicted_remove(Ckpt *c, size_t j) {
  size_t m = c->nby_start - 1, hole = index_slot(c, j), last = c->nevicted - 1;
  c->by_start[hole] = 0;
  for (size_t h = (hole + 1) & m; c->by_start[h]; h = (h + 1) & m) { /* the run after the hole shifts back */
    size_t e = c->by_start[h] - 1, home = start_slot(c, c->evicted_kind[e], c->evicted[e].lo);
    if (((h - home) & m) >= ((h - hole) & m)) c->by_start[hole] = c->by_start[h], c->by_start[h] = 0, hole = h;
  }
  if (j != last) {
    c->by_start[index_slot(c, last)] = j + 1;
    c->evicted[j] = c->evicted[last];
    c->evicted_kind[j] = c->evicted_kind[last];
  }
  c->nevicted--;
}

/* The hull of the given kind given way that starts at a, or c->nevicted. */
static size_t evicted_starting(const Ckpt *c, int kind, const char *a) {
  if (!c->nby_start) return c->nevicted;
  size_t m = c->nby_start - 1;
  for (size_t h = start_slot(c, kind, a); c->by_start[h]; h = (h + 1) & m) {
    size_t e = c->by_start[h] - 1;
    if (c->evicted_kind[e] == kind && c->evicted[e].lo == a) return e;
  }
  return c->nevicted;
}

/* Hull k of site s, kept in the loop's list of hulls no site holds. */
static void evict(Ckpt *c, const ParadSite *s, int k) {
  size_t cap = c->capevicted; /* the two arrays grow alike */
  c->evicted = grow(c->evicted, &c->capevicted, c->nevicted + 1, sizeof *c->evicted);
  c->evicted_kind = grow(c->evicted_kind, &cap, c->nevicted + 1, sizeof *c->evicted_kind);
  index_room(c);
  c->evicted_kind[c->nevicted] = (int)s->kind;
  c->evicted[c->nevicted] = (Range){s->h[k].lo, s->h[k].hi};
  index_put(c, c->nevicted++);
}

static void note_locked(ParadSite *s, char *base, char *a, char *e, int kind) {
  Ckpt *c = active ? active : running;
  if (!s->kind) {
    s->kind = kind;  /* before a fresh block's store becomes kind 3 below: the site stays a store's */
    s->next = c->sites;
    c->sites = s;
  }
  for (size_t i = 0; i < c->nfresh && kind == 1; i++) /* allocated by this very step: no earlier value to keep */
    if (base >= c->fresh[i].lo && base < c->fresh[i].hi) kind = 3;
  int k = -1;
  for (int i = 0; i < HULLS && k < 0; i++) /* the same object, or bytes next to a hull's (no gap between) */
    if (s->h[i].hi && (s->h[i].base == base || (a <= s->h[i].hi && e >= s->h[i].lo))) k = i;
  Hull h;
  if (k < 0) { /* a new base: the least recently grown hull gives way */
    /* A hull of the site's kind given way that starts where this access does is taken back, without
       logging: every live snapshot holds its bytes already (copied, or logged as it grew). Else each
       return to it logged its bytes into every live snapshot again and listed it again: a loop of T
       steps over a vector of structs took T^2 time and memory. */
    size_t j = evicted_starting(c, (int)s->kind, a);
    if (j < c->nevicted) {
      h = (Hull){base, c->evicted[j].lo, c->evicted[j].hi};
      evicted_remove(c, j);
    } else {
      h = (Hull){base, a, e};
      if (kind == 1) log_bytes(c, a, (size_t)(e - a));
      c->hulls_grown += (size_t)(e - a);
    }
    k = HULLS - 1;
    if (s->h[k].hi) evict(c, s, k);
  } else {
    h = s->h[k];
  }
  if (a < h.lo) { /* the hull grows: the bytes it takes in are logged */
    if (kind == 1) log_bytes(c, a, (size_t)(h.lo - a));
    c->hulls_grown += (size_t)(h.lo - a);
    h.lo = a;
  }
  if (e > h.hi) {
    if (kind == 1) log_bytes(c, h.hi, (size_t)(e - h.hi));
    c->hulls_grown += (size_t)(e - h.hi);
    h.hi = e;
  }
  memmove(&s->h[1], &s->h[0], (size_t)k * sizeof(Hull));
  s->h[0] = h;
}

/* The common case inline in generated code, and here again: the access lies in the hull grown last of a
 * set no other thread touches. Else the slow path (kind: 1 a store's, 2 a load's). */
static inline void note(ParadSite *s, bool shared, void *base, void *addr, uint64_t size, int kind) {
  char *a = addr, *e = a + size;
  if (!shared && a >= s->h[0].lo && e <= s->h[0].hi) return;
  note_slow(s, base, a, e, kind);
}

void __parad_rt_ckpt_note(ParadSite *s, void *base, void *addr, uint64_t size) { note(s, false, base, addr, size, 1); }
void __parad_rt_ckpt_note_load(ParadSite *s, void *base, void *addr, uint64_t size) { note(s, false, base, addr, size, 2); }

/* A v form's buffer at the root, in elements: to the end of the furthest of n ranks' counts[r] elements at
 * displs[r] (n is 0 elsewhere, where the arrays may be anything). */
int64_t __parad_rt_ckpt_span(const int *counts, const int *displs, int64_t n) {
  int64_t end = 0;
  for (int64_t r = 0; r < n; r++) {
    if (counts[r] <= 0) continue;
    if (displs[r] < 0) fail("a negative displacement of MPI_Gatherv or MPI_Scatterv in a checkpointed step");
    if ((int64_t)displs[r] + counts[r] > end) end = (int64_t)displs[r] + counts[r];
  }
  return end;
}

/* In a step that runs parallel regions: a hull set per thread number below 16 (which no other thread
 * touches), the rest sharing the last, tested under the lock. */
enum { TEAM_SLOTS = 17 };
static ParadSite *team_slot(ParadSite *sites, int gtid, bool *shared) {
  *shared = gtid < 0 || gtid >= TEAM_SLOTS - 1;
  return &sites[*shared ? TEAM_SLOTS - 1 : gtid];
}

void __parad_rt_ckpt_note_team(ParadSite *sites, int gtid, void *base, void *addr, uint64_t size) {
  bool shared;
  ParadSite *s = team_slot(sites, gtid, &shared);
  note(s, shared, base, addr, size, 1);
}

void __parad_rt_ckpt_note_load_team(ParadSite *sites, int gtid, void *base, void *addr, uint64_t size) {
  bool shared;
  ParadSite *s = team_slot(sites, gtid, &shared);
  note(s, shared, base, addr, size, 2);
}

/* When the forward sweep ends: the sites' hulls move into the loop's own list (as if given way), and the
 * sites start empty again. The loop may run again before this run's reverse sweep (inside another loop,
 * or called twice): its stores then log into that run's snapshots, not find the hulls grown here. */
static void keep_hulls(Ckpt *c) {
  for (ParadSite *s = c->sites, *n; s; s = n) {
    n = s->next;
    for (int i = 0; i < HULLS; i++)
      if (s->h[i].hi) evict(c, s, i);
    memset(s, 0, sizeof *s);
  }
  c->sites = NULL;
}

/* The hulls of one kind of site (both kinds: 0), as disjoint sorted ranges. */

static int by_lo(const void *x, const void *y) {
  const Range *a = x, *b = y;
  return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static Range *ranges_of(Ckpt *c, int kind, size_t *n) {
  size_t k = 0, cap = 0;
  Range *r = NULL;
  for (ParadSite *s = c->sites; s; s = s->next)
    if (!kind || s->kind == kind)
      for (int i = 0; i < HULLS; i++)
        if (s->h[i].hi) {
          r = grow(r, &cap, k + 1, sizeof *r);
          r[k++] = (Range){s->h[i].lo, s->h[i].hi};
        }
  for (size_t i = 0; i < c->nevicted; i++)
    if (!kind || c->evicted_kind[i] == kind) {
      r = grow(r, &cap, k + 1, sizeof *r);
      r[k++] = c->evicted[i];
    }
  if (k) qsort(r, k, sizeof *r, by_lo);
  size_t m = 0;
  for (size_t i = 0; i < k; i++)
    if (m && r[i].lo <= r[m - 1].hi) {
      if (r[i].hi > r[m - 1].hi) r[m - 1].hi = r[i].hi;
    } else {
      r[m++] = r[i];
    }
  *n = m;
  return r;
}

static size_t ranges_bytes(const Range *r, size_t n) {
  size_t b = 0;
  for (size_t i = 0; i < n; i++) b += (size_t)(r[i].hi - r[i].lo);
  return b;
}

/* The bytes the steps' hulls cover (overlaps counted once), or a little more: counted (a sort of every
 * hull) once in HULLS_RECOUNT asks, in between what they grew by since added (overlaps then twice). It is
 * asked before each snapshot, and a loop of small steps snapshots every step: a GARCH recursion's
 * gradient spent a fifth of its time in it. */
enum { HULLS_RECOUNT = 64 };
static size_t hull_bytes(Ckpt *c) {
  if (c->hulls_age++ % HULLS_RECOUNT == 0) {
    size_t n;
    Range *r = ranges_of(c, 0, &n);
    c->hulls_known = ranges_bytes(r, n), c->hulls_grown = 0;
    free(r);
  }
  return c->hulls_known + c->hulls_grown;
}

/* The ranges less what lies in read-only mappings (/proc/self/maps): the steps may read a constant table
 * through a pointer, and putting its bytes back would fault. Returns the new count. */
static size_t writable_only(Range *r, size_t n) {
  FILE *maps = n ? fopen("/proc/self/maps", "r") : NULL;
  if (!maps) return n;
  Range ro[256];
  size_t nro = 0;
  char line[512];
  while (nro < 256 && fgets(line, sizeof line, maps)) {
    unsigned long lo, hi;
    char perms[8];
    if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && perms[1] != 'w') ro[nro++] = (Range){(char *)lo, (char *)hi};
  }
  fclose(maps);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    bool keep = true;
    for (size_t j = 0; j < nro && keep; j++) keep = r[i].hi <= ro[j].lo || r[i].lo >= ro[j].hi;
    if (keep) r[m++] = r[i];
  }
  return m;
}

/* ---- snapshots ---- */

/* The loop's variables, with the shadows of those that hold pointers, into `to` one after another (back
 * from it: restore): one copy of the data, no piece each (a loop of small steps snapshots every step, and
 * a GARCH recursion's snapshots held twenty pieces of 24 bytes for 100 bytes of variables). */
static size_t vars_copy(Ckpt *c, char *to, bool restore) {
  size_t at = 0;
  for (int i = 0, k = c->nenv; i < k; i++)
    for (int shadow = 0; shadow <= (c->slots[i].pointers != 0); shadow++) {
      char *v = c->closure[shadow ? k + i : i];
      if (!c->slots[i].size) continue;
      if (restore) memcpy(v, to + at, c->slots[i].size);
      else memcpy(to + at, v, c->slots[i].size);
      at += c->slots[i].size;
    }
  return at;
}

/* Snapshots up to this size come from malloc, larger ones from the pool of tape chunks (which spares a
 * large one's pages faulting in again; a small one's search of the pool cost more than malloc). */
enum { SMALL_SNAPSHOT = 4096 };

static Snapshot *take(Ckpt *c, long step) {
  size_t n, vars = 0;
  for (int i = 0; i < c->nenv; i++) vars += c->slots[i].size * (c->slots[i].pointers ? 2 : 1);
  Range *r = ranges_of(c, 1, &n);
  size_t size = sizeof(Snapshot) + vars + ranges_bytes(r, n);
  bool pooled = size > SMALL_SNAPSHOT;
  Snapshot *s = pooled ? __parad_rt_scratch_take(size) : malloc(size);
  if (!s) fail("out of memory for a snapshot");
  *s = (Snapshot){.step = step, .pooled = pooled};
  s->taken.data = (char *)(s + 1), s->taken.size = size - sizeof *s; /* one block with the snapshot: see drop */
  pieces_reserve(&s->taken, 0, n);
  s->taken.used = vars_copy(c, s->taken.data, false);
  for (size_t i = 0; i < n; i++) pieces_add(&s->taken, r[i].lo, (size_t)(r[i].hi - r[i].lo));
  free(r);
  s->bytes = pieces_bytes(&s->taken) + sizeof *s;
  c->typical = s->bytes;
  s->next_live = c->live;
  if (c->live) c->live->prev_live = s;
  c->live = s;
  if (++c->nlive > c->most_snapshots) c->most_snapshots = c->nlive;
  account(c, s, true);
  return s;
}

/* The state as it was when s was taken. */
static void restore(Ckpt *c, Snapshot *s) {
  pieces_put_back(&s->log, true); /* a byte logged twice (its hull given way and grown again): the first */
  pieces_put_back(&s->taken, false);
  vars_copy(c, s->taken.data, true);
}

static void drop(Ckpt *c, Snapshot *s) {
  if (!s) return;
  if (s->prev_live) s->prev_live->next_live = s->next_live;
  else c->live = s->next_live;
  c->nlive--;
  if (s->next_live) s->next_live->prev_live = s->prev_live;
  account(c, s, false);
  free(s->taken.p);
  pieces_free(&s->log);
  if (s->pooled) __parad_rt_scratch_give(s);
  else free(s);
}

/* ---- the two sweeps ---- */

/* After a step run as the program runs it: the shadows of swapped pointers follow their pointers. */
static void follow_swaps(Ckpt *c) {
  for (int i = 0; i < c->nenv; i++) {
    if (c->slots[i].pointers < 2) continue;
    char **p = c->closure[i], **d = c->closure[c->nenv + i];
    for (size_t w = 0; w < c->slots[i].size / sizeof(char *); w++)
      for (size_t k = 0; k < c->npairs; k++)
        if (c->pairs[k].lo == p[w]) {
          d[w] = c->pairs[k].hi;
          break;
        }
  }
}

/* A pointer one of the loop's variables holds into another (into a local array, say), moved from the
 * copies at `from` to those at `to`: the steps run on the runtime's copies, the function on its own. */
static void relocate(Ckpt *c, void **from, void **to) {
  for (int i = 0; i < c->nenv; i++) {
    if (!c->slots[i].into) continue;
    char **w = to[i];
    for (size_t k = 0; k < c->slots[i].size / sizeof(char *); k++)
      for (int j = 0; j < c->nenv; j++)
        if (w[k] >= (char *)from[j] && w[k] < (char *)from[j] + c->slots[j].size) {
          w[k] = (char *)to[j] + (w[k] - (char *)from[j]);
          break;
        }
  }
}

/* Whether a is in the runtime's copy of one of the loop's variables (snapshotted whole, never noted). */
static bool in_variables(Ckpt *c, char *a) {
  for (int i = 0; i < c->nenv; i++)
    if (a >= (char *)c->closure[i] && a < (char *)c->closure[i] + c->slots[i].size) return true;
  return false;
}

/* The OpenMP runtime, where the program has one. */
extern int omp_in_parallel(void) __attribute__((weak));
extern int omp_get_active_level(void) __attribute__((weak));
extern int omp_get_max_active_levels(void) __attribute__((weak));

/* Whether c's steps, which run parallel regions or tasks, may show c to other threads as `running`: the
 * loop runs outside the program's parallel regions. Inside one, each thread of the team may run such a
 * loop at once, and its steps' regions must run on the step's thread alone (no nested parallelism) and
 * its tasks inside them (a task created outside would go to the program's team). */
static bool shown_running(Ckpt *c) {
  if (!omp_in_parallel || !omp_in_parallel()) return true;
  if (c->orphans)
    fail("its steps create OpenMP tasks outside a parallel region of their own, and the loop runs inside a "
         "parallel region: another thread of the team could run them (put the tasks in a region of the step)");
  if (omp_get_max_active_levels && omp_get_active_level && omp_get_max_active_levels() > omp_get_active_level())
    fail("its steps run parallel regions, the loop runs inside a parallel region, and nested parallelism is "
         "on (OMP_MAX_ACTIVE_LEVELS): not supported");
  return false;
}

static __attribute__((noinline)) void run(Ckpt *c, ParadStep step) {
  Ckpt *outer = active, *outer_running = __atomic_load_n(&running, __ATOMIC_ACQUIRE);
  char *outer_stack = c->stack;
  c->up = outer ? outer : outer_running;
  bool shown = c->threads && shown_running(c);
  active = c;
  own_stack();
  c->stack_lo = thread_stack_lo;
  if (shown) __atomic_store_n(&running, c, __ATOMIC_RELEASE);
  c->stack = __builtin_frame_address(0);
  c->nfresh = 0;
  c->nkept = 0; /* a taped run's reverse sweep released the last run's */
  c->runs++;
  step(c->closure);
  active = outer;
  if (shown) __atomic_store_n(&running, outer_running, __ATOMIC_RELEASE);
  c->stack = outer_stack;
}

/* A step called, through a function pointer, a function its module did not have (ad/checkpoint_notes.c
 * noted calls of those it had). */
void __parad_rt_ckpt_unknown_callee(void *fn) {
  (void)fn;
  fail("a step called, through a function pointer, a function of another module or library, whose writes "
       "its snapshots could not keep (a function defined in a file parad-cc compiled with the rest)");
}

/* An exception left a call in a checkpointed loop's step (ad/checkpoint.c, calls_for_invokes). */
void __parad_rt_ckpt_threw(const char *where) {
  fprintf(stderr, "parad: an exception was thrown in a step of the loop checkpointed at %s: a throw in a loop "
                  "marked with __parad_checkpoint_loop() stops the program, as in a noexcept function\n", where);
  abort();
}

/* Augmented code of a module with checkpointed loops allocates and frees through these. */
void __parad_rt_ckpt_allocated(void *p, uint64_t size) {
  Ckpt *c = active;
  if (!c || !p) return;
  c->fresh = grow(c->fresh, &c->capfresh, c->nfresh + 1, sizeof *c->fresh);
  c->fresh[c->nfresh++] = (Range){p, (char *)p + size};
}

/* A block the running step allocated is no state: its hulls and logged bytes are forgotten, and it goes. */
static size_t find_fresh(const Ckpt *c, const char *p) {
  size_t i = 0;
  while (i < c->nfresh && c->fresh[i].lo != p) i++;
  return i;
}

static bool forget_fresh(Ckpt *c, char *p) {
  size_t i = find_fresh(c, p);
  if (i == c->nfresh) return false;
  Range b = c->fresh[i];
  c->fresh[i] = c->fresh[--c->nfresh];
  for (ParadSite *s = c->sites; s; s = s->next)
    for (int k = 0; k < HULLS; k++)
      if (s->h[k].hi && s->h[k].lo >= b.lo && s->h[k].lo < b.hi) s->h[k] = (Hull){0};
  for (size_t k = 0; k < c->nevicted;)
    if (c->evicted[k].lo >= b.lo && c->evicted[k].lo < b.hi) evicted_remove(c, k);
    else k++;
  return true; /* nothing of it was logged (note_slow) */
}

/* realloc, in augmented code of a module with checkpointed loops: while a loop's reverse is to come, the
 * old block stays (a snapshot or a recomputed step may need it) and the data moves to a new one. */
void *__parad_rt_ckpt_realloc(void *p, size_t size) {
  if (!loops_pending() || !p) return realloc(p, size);
  void *q = malloc(size ? size : 1);
  if (!q) return NULL;
  size_t old = malloc_usable_size(p);
  memcpy(q, p, old < size ? old : size);
  defer_free(p, false, NULL);
  return q;
}

/* The tape that is to free the shadow of block p, freed in a step of loop c: the reverse sweep must not
 * reach it before the block's allocation. That is the tape of the enclosing loop's step where that step
 * allocated p; else, going out, the tape the outermost of the loops runs on (a step of an inner loop
 * frees a block the code around the outer loop allocated: its tape is reversed long before). */
static ParadTape *shadow_tape(Ckpt *c, const char *p) {
  while (c->up && find_fresh(c->up, p) == c->up->nfresh) c = c->up;
  return c->outer;
}

/* A block freed with its shadow (or none), both by `release` (C++'s plain delete of a block new made, whose
 * shadow new made too, or which the program's own vector made; NULL: free). With no checkpointed loop's
 * reverse to come, or a block the running step allocated, as before: the block now, the shadow with the
 * current tape (the step's). Else the block when the last such reverse is done, and the shadow as
 * shadow_tape says. (The shadow of a new'd block freed with free, and a shadow calloc made deleted by the
 * program's vector: valgrind's mismatched frees, where a file had any checkpointed loop.) */
void __parad_rt_ckpt_delete(void *p, void *shadow, void (*release)(void *)) {
  if (!p) return;
  Ckpt *c = active ? active : running;
  if (!loops_pending() || (active && forget_fresh(active, p))) {
    release_block(p, release);
    if (release) __parad_rt_delete_later(shadow, 0, release);
    else __parad_rt_free_later(shadow);
    return;
  }
  if (!defer_free(p, shadow != NULL, release)) return;
  ParadTape *t = c ? shadow_tape(c, p) : __parad_rt_current;
  if (release) __parad_rt_release_later_on(t, release, shadow);
  else __parad_rt_free_later_on(t, shadow);
}

void __parad_rt_ckpt_free(void *p, void *shadow) { __parad_rt_ckpt_delete(p, shadow, NULL); }

/* free, in a step of a loop that runs another checkpointed loop, and in what that step calls (ad/checkpoint.c):
 * the step runs as the program runs it, shadows untouched; the block's shadow goes when the augmented run
 * of the step in the reverse sweep frees it again. */
void __parad_rt_ckpt_free_primal(void *p) { __parad_rt_ckpt_free(p, NULL); }

/* The same for C++'s delete and delete[] (operator delete(void *), operator delete[](void *): the C++
 * program links them) of a block new made. */
extern void _ZdlPv(void *) __attribute__((weak));
extern void _ZdaPv(void *) __attribute__((weak));
void __parad_rt_ckpt_delete_primal(void *p) { __parad_rt_ckpt_delete(p, NULL, _ZdlPv); }
void __parad_rt_ckpt_delete_array_primal(void *p) { __parad_rt_ckpt_delete(p, NULL, _ZdaPv); }

/* What the step running now makes for its reverse sweep (tape.c's __parad_rt_shadow_alloca, the MPI
 * runtime's records): its reverse sweep releases it, or, when its tape is dropped, the runtime does. Any
 * thread of the step's team. */
void __parad_rt_ckpt_track(void *p, void (*release)(void *)) {
  Ckpt *c = active ? active : __atomic_load_n(&running, __ATOMIC_ACQUIRE);
  if (!c || !p) return;
  pthread_mutex_lock(&notes_lock);
  c->kept = grow(c->kept, &c->capkept, c->nkept + 1, sizeof *c->kept);
  c->kept[c->nkept++] = (struct Kept){p, release};
  pthread_mutex_unlock(&notes_lock);
}

/* The tape of the last augmented step, dropped: the forward sweep and recomputations keep no tape, and
 * what only its reverse sweep would have released goes now. */
void __parad_rt_ckpt_drop_tape(void *tape) {
  ParadTape *t = tape;
  Ckpt *c = active;
  size_t bytes = t ? t->bytes : 0, held = __parad_rt_tape_budget_held();
  __parad_rt_tape_recycle(t);
  for (size_t i = 0; c && i < c->nkept; i++) c->kept[i].release(c->kept[i].p);
  if (c) c->nkept = 0;
  /* with the tapes of the step's tasks, which go with it */
  size_t now = __parad_rt_tape_budget_held();
  bytes += held > now ? held - now : 0;
  if (c && bytes > c->step_tape) c->step_tape = bytes;
}

/* Every other snapshot of the forward sweep goes, the rest twice as far apart. */
static void thin(Ckpt *c) {
  size_t kept = 0;
  for (size_t i = 0; i < c->nat; i++)
    if (i % 2 == 0) c->at[kept++] = c->at[i];
    else drop(c, c->at[i]);
  c->nat = kept;
  c->interval *= 2;
}

/* The budget is about to be exceeded by a step of the forward sweep running on this thread (a step that
 * tapes more than those before it: a neighbour list rebuilt every tenth step): its snapshots give way,
 * as they would have before the step had its tape been known. Not where the steps run parallel regions
 * (their threads log into the snapshots) or communicate (the ranks agree on every snapshot). Whether
 * anything went. */
int __parad_rt_ckpt_relieve(void) {
  Ckpt *c = active;
  if (!c || !c->forward || c->threads || c->agree || c->nat <= 1) return false;
  thin(c);
  return true;
}

enum { CKPT_NESTED = 1, CKPT_PRIMAL = 2, CKPT_THREADS = 4, CKPT_ORPHAN_TASKS = 8 }; /* ad/checkpoint.c passes them */

/* code: the caller's exit code, then nlengths lengths of variable-length arrays the steps use; advance: a
 * step as the forward sweep runs it; taped: a step through split mode with its tape dropped, run once
 * first to learn the tape one step takes (the same function when advance is that already, or where the
 * steps run checkpointed loops); agree: null, or where the steps communicate, the MPI runtime's agreement
 * of the ranks' choices; flags: CKPT_NESTED (the steps run checkpointed loops: the reverse sweep leaves
 * half of what it may use to them), CKPT_PRIMAL (advance, and the reverse sweep's, run a step as the
 * program does, leaving the shadows to follow swapped pointers here; augmented steps move them
 * themselves, and a pointer two variables held when the loop began may have had two shadows), CKPT_THREADS
 * (the steps run parallel regions or tasks), CKPT_ORPHAN_TASKS (some of those tasks outside the steps' regions). */
void *__parad_rt_ckpt_forward(const ParadEnvSlot *slots, int nenv, void **vars, void **shadows, int64_t *code,
                              int nlengths, ParadStep advance, ParadStep taped, long (*agree)(long), int flags) {
  frames_on_stack();
  Ckpt *c = calloc(1, sizeof *c);
  ParadEnvSlot *copy = malloc(sizeof *copy * (size_t)(nenv ? nenv : 1)); /* generated code's are on its stack */
  if (!c || !copy) fail("out of memory");
  memcpy(copy, slots, sizeof *copy * (size_t)nenv);
  c->slots = slots = copy;
  c->nenv = nenv;
  c->agree = agree;
  c->nested = flags & CKPT_NESTED;
  c->primal = flags & CKPT_PRIMAL;
  c->threads = flags & CKPT_THREADS;
  c->orphans = flags & CKPT_ORPHAN_TASKS;
  c->closure = calloc(2 * (size_t)nenv + 1, sizeof(void *));
  c->zeroed = calloc((size_t)nenv + 1, sizeof(char *));
  if (!c->closure || !c->zeroed) fail("out of memory");
  for (int i = 0; i < nenv; i++) {
    char *copy = malloc(slots[i].size ? slots[i].size : 1);
    if (!copy) fail("out of memory for the loop's variables");
    memcpy(copy, vars[i], slots[i].size);
    c->closure[i] = copy;
    if (!shadows[i]) shadows[i] = c->zeroed[i] = calloc(1, slots[i].size ? slots[i].size : 1);
    c->closure[nenv + i] = shadows[i];
  }
  relocate(c, vars, c->closure);
  int64_t *cell = c->code;
  if (nlengths > 7 && !(cell = c->more = calloc((size_t)nlengths + 1, sizeof *cell))) fail("out of memory");
  memcpy(cell + 1, code + 1, sizeof *cell * (size_t)nlengths);
  c->closure[2 * nenv] = cell;
  for (int i = 0; i < nenv; i++) /* a swapped variable may take the pointer of any other */
    if (slots[i].pointers && slots[i].pointers != 3)
      for (size_t w = 0; w < slots[i].size / sizeof(char *); w++) {
        c->pairs = grow(c->pairs, &c->cappairs, c->npairs + 1, sizeof *c->pairs);
        c->pairs[c->npairs++] = (Range){((char **)c->closure[i])[w], ((char **)shadows[i])[w]};
      }
  c->interval = 1;
  c->outer = __parad_rt_current;
  c->forward = true;
  __atomic_add_fetch(&pending, 1, __ATOMIC_ACQ_REL);
  for (long n = 0;; n++) {
    if (n % c->interval == 0) {
      size_t size = c->typical;
      while (c->nat > 1 && !agreed(c, room_for_snapshot(c, size))) thin(c);
      if (n % c->interval == 0) {
        c->at = grow(c->at, &c->capat, c->nat + 1, sizeof *c->at);
        c->at[c->nat++] = take(c, n);
      }
    }
    *(int *)cell = -1;
    ParadStep step = n ? advance : taped;
    run(c, step);
    if (c->primal && step == advance) follow_swaps(c);
    if (*(int *)cell != 0) {
      c->steps = n + 1;
      break;
    }
  }
  c->forward = false;
  /* what the steps only read (their reads' hulls less their writes'), as the loop leaves it */
  size_t nr, nw;
  Range *r = ranges_of(c, 2, &nr), *w = ranges_of(c, 1, &nw);
  nr = writable_only(r, nr);
  for (size_t i = 0, j = 0; i < nr; i++) {
    char *lo = r[i].lo;
    for (; j < nw && w[j].hi <= lo; j++) {}
    for (size_t k = j; k < nw && w[k].lo < r[i].hi && lo < r[i].hi; k++) {
      if (w[k].lo > lo) pieces_add(&c->inputs, lo, (size_t)(w[k].lo - lo));
      if (w[k].hi > lo) lo = w[k].hi;
    }
    if (lo < r[i].hi) pieces_add(&c->inputs, lo, (size_t)(r[i].hi - lo));
  }
  free(r);
  free(w);
  __parad_rt_tape_budget_take(pieces_bytes(&c->inputs));
  keep_hulls(c);
  for (int i = 0; i < nenv; i++) memcpy(vars[i], c->closure[i], slots[i].size);
  relocate(c, c->closure, vars);
  *(int *)code = *(int *)cell;
  return c;
}

static unsigned long long binomial(unsigned long long n, unsigned long long k) {
  unsigned long long r = 1;
  for (unsigned long long i = 1; i <= k; i++) {
    if (r > (~0ull >> 8) / (n - k + i)) return ~0ull >> 8; /* saturates: only compared with step counts */
    r = r * (n - k + i) / i;
  }
  return r;
}

/* How many snapshots the reverse sweep may add now. */
static long free_snapshots(Ckpt *c, size_t size) {
  long f = 0;
  size_t held = __parad_rt_tape_budget_limit() ? __parad_rt_tape_budget_held() : c->snapshot_bytes, b = budget();
  size_t keep = held + reserve(c, 0);
  if (keep < b) f = (long)((b - keep) / (c->nested ? 2 : 1) / (size ? size : 1));
  return f > 64 ? 64 : f;
}

static void advance_to(Ckpt *c, Snapshot *from, long to, ParadStep advance) {
  restore(c, from);
  for (long i = from->step; i < to; i++) {
    run(c, advance);
    if (c->primal) follow_swaps(c);
  }
}

/* Reverses steps [from->step, end), from's state in hand. */
static void reverse_stretch(Ckpt *c, Snapshot *from, long end, ParadStep advance, ParadStep youturn) {
  long a = from->step;
  while (end > a) {
    long len = end - a, f = agreed(c, free_snapshots(c, c->typical));
    if (len == 1 || f == 0) { /* the step before end, from a's state */
      advance_to(c, from, end - 1, advance);
      run(c, youturn);
      end--;
      continue;
    }
    unsigned long long t = 1;
    while (binomial((unsigned long long)(f + t), (unsigned long long)t) < (unsigned long long)len) t++;
    unsigned long long right = binomial((unsigned long long)(f - 1 + t), (unsigned long long)t);
    long left = right >= (unsigned long long)len ? 1 : len - (long)right;
    advance_to(c, from, a + left, advance);
    Snapshot *mid = take(c, a + left);
    reverse_stretch(c, mid, end, advance, youturn);
    drop(c, mid);
    end = a + left;
  }
}

void __parad_rt_ckpt_reverse(void *ctx, ParadStep advance, ParadStep youturn) {
  Ckpt *c = ctx;
  /* the memory as the program left it, for after; the loop's inputs as the loop read them */
  Pieces after = {0};
  size_t n;
  Range *r = ranges_of(c, 0, &n);
  n = writable_only(r, n);
  pieces_reserve(&after, ranges_bytes(r, n), n);
  for (size_t i = 0; i < n; i++) pieces_add(&after, r[i].lo, (size_t)(r[i].hi - r[i].lo));
  free(r);
  __parad_rt_tape_budget_take(pieces_bytes(&after));
  pieces_put_back(&c->inputs, false);
  long end = c->steps;
  for (size_t k = c->nat; k-- > 0;) {
    Snapshot *s = c->at[k];
    reverse_stretch(c, s, end, advance, youturn);
    end = s->step;
    if (k == 0) restore(c, s); /* the variables' shadows as before the loop */
    drop(c, s);
  }
  pieces_put_back(&after, false);
  __parad_rt_tape_budget_give(pieces_bytes(&after));
  pieces_free(&after);
  last_steps = c->steps, last_runs = c->runs;
  if (getenv("PARAD_CHECKPOINT_STATS"))
    fprintf(stderr, "parad runtime: checkpointed loop: %ld steps, %ld step runs (%.2f per step), at most %ld snapshots "
            "at once, at most %zu bytes of tape a step (in whole chunks)\n", c->steps, c->runs, (double)c->runs / (double)c->steps,
            c->most_snapshots, c->step_tape);
  __parad_rt_tape_budget_give(pieces_bytes(&c->inputs));
  pieces_free(&c->inputs);
  for (int i = 0; i < c->nenv; i++) {
    free(c->closure[i]);
    free(c->zeroed[i]);
  }
  free(c->closure);
  free(c->zeroed);
  free((void *)c->slots);
  free(c->at);
  free(c->fresh);
  free(c->kept);
  free(c->pairs);
  free(c->more);
  free(c->evicted);
  free(c->evicted_kind);
  free(c->by_start);
  free(c);
  pthread_mutex_lock(&deferred_lock);
  if (__atomic_sub_fetch(&pending, 1, __ATOMIC_ACQ_REL) == 0) {
    for (size_t i = 0; i < ndeferred; i++) release_block(deferred[i].p, deferred[i].release);
    ndeferred = 0;
  }
  pthread_mutex_unlock(&deferred_lock);
}

/* Whether a gradient's call site takes its function's budgeted twin (ad/checkpoint_auto.c): under a
 * budget, unless the site's plain gradient is known to have held at most half of it (site_most: its most
 * bytes of tape the last time it ran, 0 before). */
int __parad_rt_ckpt_auto(const char *twin, const size_t *site_most) {
  (void)twin;
  size_t b = __parad_rt_tape_budget_limit(), most = __atomic_load_n(site_most, __ATOMIC_RELAXED);
  return b && (!most || most > b / 2);
}

/* After the site's plain gradient: the most it added to what the tapes held before it (`since`, from
 * __parad_rt_tape_budget_watch, called before it). */
void __parad_rt_ckpt_auto_learn(size_t *site_most, size_t since) {
  size_t most = __parad_rt_tape_budget_watched(since);
  __atomic_store_n(site_most, most ? most : 1, __ATOMIC_RELAXED);
}

void parad_checkpoint_counts(long *steps, long *runs) {
  if (steps) *steps = last_steps;
  if (runs) *runs = last_runs;
}
