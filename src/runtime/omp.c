/* Parallel regions in reverse mode.
 *
 * The forward sweep of a region runs on a team; each thread records on a tape of its own, kept in the
 * region under its thread number, and the region is kept by the tape of the thread that forked it (a
 * tree of tapes: ending the root frees every region and every thread's tape under it). The reverse sweep
 * forks a team of the same size, and each thread reads back the tape of its own number.
 *
 * Critical sections (and the reductions Parad performs through them) must be reversed in the opposite
 * order: a thread entering one in the forward sweep takes the next ticket of that lock, which its tape
 * keeps; in the reverse sweep the ticket holders go through in descending order, one at a time. */
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index_span.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "tape.h"

/* One turn of a wait for other threads of a team of `team`. A thread that yields at once gives its
 * processor to whatever else is runnable (on a 2-core machine, one of the host's own tasks: 8717
 * context switches in 100 2-thread CG gradients, 55 in as many primals) and is then late for the next
 * barrier; so it first spins a while, as libomp's barriers do, unless the team has more threads than
 * the machine has processors, where the awaited thread may need this one's. */
static void wait_a_turn(unsigned *turns, int team) {
  static int procs; /* 0: not asked yet */
  int n = __atomic_load_n(&procs, __ATOMIC_RELAXED);
  if (!n) __atomic_store_n(&procs, n = omp_get_num_procs(), __ATOMIC_RELAXED);
  if (++*turns < 4096 && team <= n) {
#ifdef __SSE2__
    _mm_pause();
#endif
    return;
  }
  sched_yield();
}

/* The runtime's locks guard a few loads and stores, which a team's threads all want at once (as each
 * enters a region, notes its ranges, copies its inputs). A plain mutex put the second thread to sleep
 * and woke it a context switch later, about one per region of a 2-thread CG gradient (3226 switches in
 * 20 gradients, 44 for the hand-written adjoint's); glibc's adaptive mutex spins a little first, too
 * little where the holder copies a memo (still 87 switches a gradient). So a thread waits for a lock
 * as for its team (above). */
static void quick_lock(pthread_mutex_t *m) {
  for (unsigned turns = 0; pthread_mutex_trylock(m) != 0;) wait_a_turn(&turns, omp_get_num_threads());
}

/* What the forward sweep notes per thread and shared object: the addresses read [lo, hi) and written,
 * the distance from the object to its shadow (0: unknown), and, where every read was in a run of one
 * stride P, P and the bytes [lo, hi) of a period of P the reads fell in, counted from `origin` (P 0 or
 * all ones: none). */
enum { READ_LO, READ_HI, WRITTEN_LO, WRITTEN_HI, SHADOW_DELTA, READ_PERIOD, PHASE_LO, PHASE_HI, PHASE_ORIGIN, RANGE_FIELDS };
/* What the reverse sweep is told per thread and object (shared_plan): the part only this thread read, the
 * private buffer for the rest, (a task's) the input dependence whose reads it took from a copy, whether
 * the thread's own part is all it read (its adjoints then go in plainly with no test per address), the
 * part the buffer never touches (the own part; a chunk's own part is told apart, chunk_plan), and whether
 * the buffer holds all it read, from a start at whole floats (its adjoints then all go into the buffer
 * with no test per address). */
enum { OWN_LO, OWN_HI, PRIVATE_BASE, PRIVATE_LEN, PRIVATE_BUFFER, OWN_SHADOW_LO, PRIVATE_LO, COPY_LO, COPY_LEN, COPY_DELTA,
       OWN_WHOLE, BUFFER_SKIP_LO, BUFFER_SKIP_HI, BUFFER_WHOLE, PLAN_FIELDS };

/* A thread's private adjoints of a shared object, in the reverse sweep: where the thread read addresses
 * other threads read too, it adds their adjoints plainly into a buffer that mirrors its read range
 * [base, base + len), and adds the buffer into the shadow (atomically, the nonzero floats) when other
 * threads may look: at a barrier, as it leaves a critical section, at the region's end. Where it alone
 * read, it adds into the shadow directly: that part of the buffer is never touched (nor zeroed, nor
 * scanned), so that a buffer costs what the shared edges of the range hold (a stencil's rows next to
 * another thread's), not the whole range. */
typedef struct {
  char *buffer;         /* NULL: not kept */
  unsigned long long base, len, delta;
  unsigned long long edge_lo, edge_hi; /* the buffer is used below edge_lo and from edge_hi on: the floats
                                          that are not wholly in the part no other thread read */
  unsigned elem;        /* 4 (float) or 8 (double) */
} Private;

void __parad_rt_shared_flush(void);

typedef struct CopyBlock CopyBlock;

/* A copy of what a thread or task read of an input (see "inputs" below). */
typedef struct {
  CopyBlock *block;       /* the copy's memory, perhaps another copy's (shared_block) */
  char *data;             /* the copy of [lo, lo + len), as aligned as the original modulo 64 */
  unsigned long long lo, len;
  bool wanted;            /* a region's thread: the function asked for it (shared_input) */
  bool run;               /* a region's thread: made as a run started or ended (__parad_rt_run_copy, _output_copy) */
  bool due;               /* a region's thread: to be made as the run ends, of [lo, lo + len) */
} Copy;

typedef struct {
  const void *lock;
  long next;            /* forward sweep: the next ticket */
  long turn;            /* reverse sweep: the ticket whose turn it is */
} LockOrder;

/* [lo, hi) of memory; `held`: see ParadRegion. */
typedef struct {
  unsigned long long lo, hi;
  bool held;
} Span;

/* A thread's chunks of a dynamic, guided or chunked static schedule (reverse/rev_shared.c "chunks"): per
 * chunk noted, READ_LO and READ_HI per object; in the reverse sweep, the chunk being reversed and, per
 * object, what the other threads read that may meet the object's reads (sorted, disjoint). */
typedef struct {
  unsigned long long first_lo, first_hi; /* the first chunk's reads */
  unsigned long long every, lo, hi;      /* the period (0: not yet known, all ones: none) and its part read */
  unsigned long long last, last_at;      /* the last chunk's first address and its place in the period */
} ChunkPeriod;

typedef struct {
  unsigned long long *reads;
  size_t notes, cap;
  size_t starts;             /* chunk starts met (the last note holds the chunks past MAX_CHUNK_NOTES - 1) */
  ChunkPeriod *period;       /* per object */
  size_t cursor;
  bool *by_chunk;            /* reverse: per object, whether its own part is the chunk's (else the thread's) */
  unsigned long long *own_lo, *own_hi; /* reverse: per such object, the part no other thread read at all */
  Span **others;             /* reverse: per such object, the others' reads that may meet it (or `common`) */
  size_t *nothers;
  Span *common;              /* all the others' reads */
  size_t ncommon;
} Chunks;

/* A thread's longest run of the index array a gather read (reverse/rev_shared.c "gathers"): the indices at
 * [lo, hi), read as base + scale * index + [from, to); the least and most index of each block of them
 * (index_block's). */
enum { MAX_GATHERS = 8 };
typedef struct GatherRun {
  unsigned long long lo, hi, base;
  long long scale, from, to;
  unsigned size;
  long long *blocks; /* least, most: per block */
  size_t nblocks;
} GatherRun;

/* The indices per block of a run of n: at least 64, and at most about 1024 blocks (the reverse sweep's
 * first look at them goes through them all, once per region and thread). */
static size_t index_block(size_t n) { return n / 1024 > 64 ? n / 1024 : 64; }

struct ParadRegion {
  int nthreads;         /* the team of the forward sweep; 0 until a thread arrives */
  ParadTape **tapes;    /* one per thread number */
  pthread_mutex_t mu;   /* guards the table of locks and the first arrival */
  LockOrder *locks;
  size_t nlocks, caplocks;
  /* per thread: RANGE_FIELDS per shared object, and one flag per summed address */
  int nroots, nsums;
  unsigned long long *ranges;
  unsigned char *may_sum;
  Private *priv;        /* reverse sweep: per thread, per shared object */
  Chunks *chunks;       /* per thread */
  int finished, merged; /* reverse sweep: threads at the end of the region's body, and done adding buffers */
  int ncopies;          /* objects per thread in copies (the function's, as it asked for one) */
  Copy *copies;         /* per thread and object: the inputs it read, copied as it returned */
  /* Its tasks (see "readers' adjoints, one at a time" below): the one creator of them all; the ranges of
   * their dependences, and of what a task read or wrote outside the one dependence that names it (loose
   * = true: anywhere); in the reverse sweep, each dependence's range once, and whether it is held. */
  void *creator;
  bool loose;
  Span *named, *unnamed;
  size_t nnamed, capnamed, nunnamed, capunnamed;
  bool decided;
  size_t nheld;
  Span *held; /* sorted, distinct; a span's `held` says whether its readers' adjoints may hold it */
  /* For copies trusted (below): the region's number, the threads that noted their writes, whether a
   * region forked inside it; where the compiler found that nothing but locals was written since the
   * region forked before it on the same tape, that region, and the forking thread's stack, where the
   * locals are. */
  unsigned long long gen;
  int noted;
  bool nested, unnoted, tasked; /* unnoted: a thread may have written what it did not note; tasked: it made
                                   tasks, whose notes are their own */
  int summary;               /* region_summary: 0 not yet made, 1 usable, 2 not */
  unsigned char *stage;      /* per object, its stage (reverse/rev_shared.c "stages"); NULL: all one */
  unsigned long long *hulls; /* per object, [lo, hi) of all threads' writes */
  ParadRegion *after;
  unsigned long long stack_lo, stack_hi;
  struct GatherRun *gathers; /* per thread, MAX_GATHERS each (see "a gather's clean stretch") */
};

static void fatal(const char *what) {
  fprintf(stderr, "parad runtime: %s\n", what);
  exit(70);
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) fatal("out of memory");
  return p;
}

static void push_span(Span **v, size_t *n, size_t *cap, unsigned long long lo, unsigned long long hi) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 64;
    *v = realloc(*v, *cap * sizeof **v);
    if (!*v) fatal("out of memory");
  }
  (*v)[(*n)++] = (Span){lo, hi, false};
}

static int span_order(const void *a, const void *b) {
  const Span *x = a, *y = b;
  return x->lo != y->lo ? (x->lo < y->lo ? -1 : 1) : x->hi != y->hi ? (x->hi < y->hi ? -1 : 1) : 0;
}

/* Forward sweep, around a call the compiler found quiet since the region forked before it (in the caller,
 * or in a function the caller called before, which ends with it: omp/omp_quiet_forks.c), to a function
 * that takes the chain at its entry: `to` its key, `open` whether the call is quiet (a caller quiet only
 * since its own entry passes on what it took). After the call, chain_give(NULL, 0) forgets what was not
 * taken. */
void __parad_rt_chain_give(const void *to, int open) {
  if (__parad_rt_current) __parad_rt_current->chain_to = open ? to : NULL;
}

/* Forward sweep, at the entry of the function keyed `self`: whether its caller gave it the chain. */
int __parad_rt_chain_take(const void *self) {
  ParadTape *t = __parad_rt_current;
  if (!t) return 0;
  bool open = self && t->chain_to == self;
  t->chain_to = NULL;
  return open;
}

/* The calling thread's stack from `here` to its top, where the thread's bounds are known: every local
 * variable of the functions it is in. */
static bool live_stack(unsigned long long here, unsigned long long *lo, unsigned long long *hi) {
  static _Thread_local unsigned long long top; /* 0: not asked yet, 1: unknown */
  if (!top) {
    pthread_attr_t a;
    void *at;
    size_t size;
    top = 1;
    if (!pthread_getattr_np(pthread_self(), &a)) {
      if (!pthread_attr_getstack(&a, &at, &size)) top = (unsigned long long)(uintptr_t)at + size;
      pthread_attr_destroy(&a);
    }
  }
  if (top == 1 || here >= top) return false;
  *lo = here, *hi = top;
  return true;
}

/* Forward sweep, as a region is about to fork. quiet: the compiler found that on every path from the
 * region forked before it the program wrote only local variables, and called nothing that could write:
 * paths in this function from a fork, or from a call of a function that ends with its region, or (where
 * the caller gave the chain, __parad_rt_chain_take) from the function's entry. The locals are all on the
 * thread's stack, above this function's frame: copies there are not trusted. */
ParadRegion *__parad_rt_region_begin(int quiet) {
  static unsigned long long gens;
  ParadTape *t = __parad_rt_current;
  if (!t) fatal("a parallel region of differentiated code ran outside a differentiated call");
  ParadRegion *r = xcalloc(1, sizeof *r);
  pthread_mutex_init(&r->mu, NULL);
  r->gen = __atomic_add_fetch(&gens, 1, __ATOMIC_RELAXED);
  if (t->region) __atomic_store_n(&t->region->nested, true, __ATOMIC_RELAXED); /* its notes miss this one's writes */
  if (quiet && t->last_region && live_stack((unsigned long long)(uintptr_t)__builtin_frame_address(0), &r->stack_lo, &r->stack_hi))
    r->after = t->last_region;
  t->last_region = r;
  t->chain_to = NULL;
  if (t->nregions == t->capregions) {
    t->capregions = t->capregions ? 2 * t->capregions : 8;
    t->regions = realloc(t->regions, t->capregions * sizeof *t->regions);
    if (!t->regions) fatal("out of memory");
  }
  t->regions[t->nregions++] = r;
  return r;
}

/* Whether the calling thread's adjoint updates can race with none but its own team's: no enclosing region
 * is active. A region nested in another runs on a team of one where nesting is off (libomp's default),
 * while the outer team's other threads run their own instances of it and add into the same adjoints. */
static bool no_outer_team(void) { return omp_get_active_level() - (omp_get_num_threads() > 1) <= 0; }

/* A call in a region that passes shared objects to a callee that only reads them (reverse/rev_redirect.c):
 * per parameter redirected, the hull of the addresses the callee read, then the caller's plan for the
 * object as the callee's reverse sweep is to use it (own part, private buffer). */
enum { REDIRECTS = 4, REDIRECT_FIELDS = 8 };
_Thread_local uint64_t __parad_rt_redirect[REDIRECTS * REDIRECT_FIELDS];

/* Reverse sweep: whether the thread adds plainly where a team would add atomically (a team of one, alone). */
int __parad_rt_team_alone(void) { return omp_get_num_threads() == 1 && no_outer_team(); }

/* Whether a region run while t was current (or one nested in it, `depth` levels down) allocated the
 * shadow: its threads' tapes live until its reverse sweep, suspended, with what they allocated. Asked
 * only where t's own tape did not allocate it, as the program frees it. */
int __parad_rt_regions_born(ParadTape *t, const void *shadow, int depth) {
  for (size_t k = 0; k < t->nregions; k++) {
    ParadRegion *r = t->regions[k];
    for (int i = 0; r->tapes && i < r->nthreads; i++) {
      ParadTape *rt = r->tapes[i];
      if (rt && (__parad_rt_shadow_born_on(rt, shadow) || (depth > 0 && __parad_rt_regions_born(rt, shadow, depth - 1))))
        return 1;
    }
  }
  return 0;
}

/* Each thread of the forward team: a tape of its own, current until region_leave. */
void __parad_rt_region_enter(ParadRegion *r) {
  int n = omp_get_num_threads(), id = omp_get_thread_num();
  if (!__atomic_load_n(&r->tapes, __ATOMIC_ACQUIRE)) { /* the first to arrive allocates; the others wait for it */
    quick_lock(&r->mu);
    if (!r->tapes) {
      r->nthreads = n;
      r->chunks = xcalloc((size_t)n, sizeof *r->chunks);
      r->gathers = xcalloc((size_t)n * MAX_GATHERS, sizeof *r->gathers);
      __atomic_store_n(&r->tapes, xcalloc((size_t)n, sizeof *r->tapes), __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&r->mu);
  }
  ParadTape *t = __parad_rt_tape_begin();
  t->region = r;
  t->region_thread = id;
  r->tapes[id] = t;
}

/* Forward sweep, where a region forks that notes nothing (its function has no derivative): what it wrote
 * is not known. */
void __parad_rt_region_untracked(void) {
  ParadTape *t = __parad_rt_current;
  if (t) t->last_region = NULL, t->chain_to = NULL;
}

void __parad_rt_region_leave(ParadRegion *r) {
  (void)r;
  __parad_rt_tape_suspend(__parad_rt_current);
}

/* Before the reverse sweep forks: the team size it must ask for, and the order of critical sections. */
int __parad_rt_region_reverse_begin(ParadRegion *r) {
  for (size_t i = 0; i < r->nlocks; i++) r->locks[i].turn = r->locks[i].next - 1;
  return r->nthreads > 0 ? r->nthreads : 1;
}

/* Each thread of the reverse team: its own tape of the forward sweep, current until region_finish. */
void __parad_rt_region_resume(ParadRegion *r) {
  int n = omp_get_num_threads(), id = omp_get_thread_num();
  if (n != r->nthreads) {
    char msg[256];
    snprintf(msg, sizeof msg,
             "the reverse sweep of a parallel region got a team of %d threads, its forward sweep had %d "
             "(nested parallelism or thread limits changed between the sweeps?)", n, r->nthreads);
    fatal(msg);
  }
  __parad_rt_tape_resume(r->tapes[id]);
}

/* One thread's (or task's) private buffers, back into the pool. */
static void free_private(Private *priv, int nroots) {
  for (int k = 0; priv && k < nroots; k++) {
    __parad_rt_scratch_give(priv[k].buffer);
    priv[k].buffer = NULL;
  }
}

static Private *thread_private(ParadRegion *r, int id) { return r->priv ? &r->priv[(size_t)id * r->nroots] : NULL; }
static Copy *thread_copies(ParadRegion *r, int id) { return r->copies ? &r->copies[(size_t)id * r->ncopies] : NULL; }
static void drop_copies(Copy *copies, int n);
static void region_copy_inputs(ParadRegion *r, int id, const unsigned long long *ranges, int nroots);
static void region_plan_copies(ParadRegion *r, int id, unsigned long long *own);

static void free_chunk_plans(Chunks *c, int nroots) {
  for (int k = 0; c->others && k < nroots; k++)
    if (c->others[k] != c->common) free(c->others[k]);
  free(c->common);
  free(c->others);
  free(c->nothers);
  free(c->by_chunk);
  free(c->own_lo);
  free(c->own_hi);
  c->others = NULL;
  c->nothers = NULL;
  c->by_chunk = NULL;
  c->own_lo = c->own_hi = NULL;
  c->common = NULL;
}

void __parad_rt_region_finish(ParadRegion *r) {
  int id = omp_get_thread_num();
  for (int i = 0; r->gathers && i < MAX_GATHERS; i++) {
    free(r->gathers[(size_t)id * MAX_GATHERS + i].blocks);
    r->gathers[(size_t)id * MAX_GATHERS + i].blocks = NULL;
  }
  free_private(thread_private(r, id), r->nroots);
  if (r->chunks) free_chunk_plans(&r->chunks[id], r->nroots);
  drop_copies(thread_copies(r, id), r->ncopies);
  ParadTape *t = r->tapes[id];
  r->tapes[id] = NULL;
  __parad_rt_tape_end(t);
}

void __parad_rt_region_free(ParadRegion *r) {
  for (int i = 0; r->tapes && i < r->nthreads; i++)
    if (r->tapes[i]) __parad_rt_tape_discard(r->tapes[i]); /* a forward sweep whose reverse never ran */
  free(r->tapes);
  free(r->locks);
  for (int i = 0; r->priv && i < r->nthreads; i++) free_private(thread_private(r, i), r->nroots);
  for (int i = 0; r->copies && i < r->nthreads; i++) drop_copies(thread_copies(r, i), r->ncopies);
  for (int i = 0; r->chunks && i < r->nthreads; i++) {
    free_chunk_plans(&r->chunks[i], r->nroots);
    free(r->chunks[i].reads);
    free(r->chunks[i].period);
  }
  free(r->chunks);
  for (int i = 0; r->gathers && i < r->nthreads * MAX_GATHERS; i++) free(r->gathers[i].blocks);
  free(r->gathers);
  free(r->priv);
  free(r->copies);
  free(r->ranges);
  free(r->hulls);
  free(r->may_sum);
  free(r->stage);
  free(r->named);
  free(r->unnamed);
  pthread_mutex_destroy(&r->mu);
  free(r);
}

/* ---- critical sections ---- */

static LockOrder *order_of(ParadRegion *r, const void *lock) {
  quick_lock(&r->mu);
  LockOrder *o = NULL;
  for (size_t i = 0; i < r->nlocks && !o; i++)
    if (r->locks[i].lock == lock) o = &r->locks[i];
  if (!o) {
    if (r->nlocks == r->caplocks) {
      r->caplocks = r->caplocks ? 2 * r->caplocks : 4;
      r->locks = realloc(r->locks, r->caplocks * sizeof *r->locks);
      if (!r->locks) fatal("out of memory");
    }
    o = &r->locks[r->nlocks++];
    o->lock = lock;
    o->next = 0;
    o->turn = -1;
  }
  pthread_mutex_unlock(&r->mu);
  return o;
}

/* Forward sweep, holding the lock: this thread's ticket, kept until it leaves. */
void __parad_rt_critical_entered(const void *lock) {
  ParadTape *t = __parad_rt_current;
  if (!t || !t->region) return; /* one thread: the order is the program's */
  LockOrder *o = order_of(t->region, lock);
  if (t->ntickets == t->captickets) {
    t->captickets = t->captickets ? 2 * t->captickets : 4;
    t->tickets = realloc(t->tickets, t->captickets * sizeof *t->tickets);
    if (!t->tickets) fatal("out of memory");
  }
  t->tickets[t->ntickets++] = o->next++;
}

/* Forward sweep, still holding the lock: the ticket goes on the tape, where the reverse sweep finds it
 * first thing when it comes back to this point. */
void __parad_rt_critical_leaving(const void *lock) {
  (void)lock;
  ParadTape *t = __parad_rt_current;
  if (!t || !t->region) return;
  if (!t->ntickets) fatal("a critical section was left that was never entered");
  long ticket = t->tickets[--t->ntickets];
  __parad_rt_tape_push(t, &ticket, sizeof ticket);
}

/* Forward sweep, in a critical section that overwrites shared data (omp_critical_order.c): its reverse
 * needs the order of entry, which tasks cannot keep (a task waiting for its turn in the reverse sweep
 * may hold the thread that the one before it needs). Alone on a team the order is the program's. */
void __parad_rt_critical_overwrites(const void *lock) {
  (void)lock;
  ParadTape *t = __parad_rt_current;
  if (t && t->task && omp_get_num_threads() > 1)
    fatal("reverse mode cannot differentiate a critical section (or lock) that overwrites shared data inside an "
          "OpenMP task run by a team of several threads: its reverse needs the order in which the tasks entered "
          "it, which Parad does not keep for tasks; sections that only add into shared data (s += v) work");
}

int __kmpc_global_thread_num(void *loc); /* libomp's entry points, as clang calls them */
void __kmpc_critical(void *loc, int gtid, void *crit);
void __kmpc_end_critical(void *loc, int gtid, void *crit);

/* A task's reverse sweep of a section that only adds into shared data (the others stop the program on a
 * team of several threads): in any order, but one at a time, as the forward sweep ran them. Its adjoint
 * takes the adjoint of what the section stored and adds it back to what it loaded, which another task's
 * reverse must not see half done (an adjoint lost or counted twice, before this was held). */
static void task_section(const void *lock, int lock_api, bool enter) {
  void *l = (void *)lock;
  if (lock_api) enter ? omp_set_lock((omp_lock_t *)l) : omp_unset_lock((omp_lock_t *)l);
  else if (enter) __kmpc_critical(NULL, __kmpc_global_thread_num(NULL), l);
  else __kmpc_end_critical(NULL, __kmpc_global_thread_num(NULL), l);
}

/* Reverse sweep, at the end of a critical section: wait for this thread's turn (a task: for the lock). */
void __parad_rt_critical_reverse_enter(const void *lock, int lock_api) {
  ParadTape *t = __parad_rt_current;
  if (t && !t->region && t->task) task_section(lock, lock_api, true);
  if (!t || !t->region) return;
  long ticket;
  __parad_rt_tape_pop(t, &ticket, sizeof ticket);
  LockOrder *o = order_of(t->region, lock);
  for (unsigned turns = 0; __atomic_load_n(&o->turn, __ATOMIC_ACQUIRE) != ticket;) wait_a_turn(&turns, t->region->nthreads);
  if (t->ntickets == t->captickets) {
    t->captickets = t->captickets ? 2 * t->captickets : 4;
    t->tickets = realloc(t->tickets, t->captickets * sizeof *t->tickets);
    if (!t->tickets) fatal("out of memory");
  }
  t->tickets[t->ntickets++] = ticket;
}

/* Reverse sweep, at the start of a critical section: the next ticket down may go (a task: the lock). */
void __parad_rt_critical_reverse_exit(const void *lock, int lock_api) {
  ParadTape *t = __parad_rt_current;
  if (t && !t->region && t->task) {
    __parad_rt_shared_flush(); /* the next holder may read what this one added */
    task_section(lock, lock_api, false);
  }
  if (!t || !t->region) return;
  if (!t->ntickets) fatal("the reverse sweep left a critical section it never entered");
  long ticket = t->tickets[--t->ntickets];
  LockOrder *o = order_of(t->region, lock);
  __parad_rt_shared_flush(); /* the next holder may read what this one added */
  __atomic_store_n(&o->turn, ticket - 1, __ATOMIC_RELEASE);
}

/* ---- which shared memory each thread or task touched (reverse/rev_shared.c) ---- */

/* The same for an OpenMP task, whose notes its record keeps (below). */
static void task_note(ParadTape *t, int nroots, const unsigned long long *ranges, int nsums, const unsigned char *may_sum,
                      const unsigned char *adds);
static void task_plan(ParadTape *t, int nroots, unsigned long long *own, int nsums, unsigned char *may_sum, const unsigned char *elem);
static Private *task_private(ParadTape *t, int *nroots);

static bool unchanged_since(const ParadRegion *r, unsigned long long gen, unsigned long long lo, unsigned long long hi,
                            int writer, int written);

/* The smallest and largest index of the runs scanned lately, and of their blocks, for the regions after
 * (a CG iteration's product scans the same column indices each iteration), as far as the memory is
 * unchanged since (unchanged_since: region gen's noted writes, none of which may be integers there, are
 * its only ones). */
typedef struct {
  unsigned long long lo, hi, gen;
  unsigned size, is_signed;
  long long least, most;
  long long *blocks; /* least, most: per block of index_block's indices */
  size_t nblocks;
} SpanMemo;
enum { SPAN_MEMOS = 64, SPAN_MEMO_LEAST = 512 }; /* a shorter run is scanned for less than a look-up costs */
static SpanMemo span_memos[SPAN_MEMOS];
static unsigned span_next;
static pthread_mutex_t span_mu = PTHREAD_MUTEX_INITIALIZER;

/* The memo of the run in region r, made current for r, its blocks copied into *keep (when not NULL); false
 * if none. */
static bool span_memo(ParadRegion *r, unsigned long long lo, unsigned long long hi, unsigned size, unsigned is_signed,
                      long long *least, long long *most, GatherRun *keep) {
  bool found = false;
  quick_lock(&span_mu);
  for (int i = 0; i < SPAN_MEMOS && !found; i++) {
    SpanMemo *m = &span_memos[i];
    if (m->lo != lo || m->hi != hi || m->size != size || m->is_signed != is_signed || !unchanged_since(r, m->gen, lo, hi, -1, -1)) continue;
    m->gen = r->gen;
    *least = m->least, *most = m->most;
    if (keep) memcpy(keep->blocks, m->blocks, 2 * m->nblocks * sizeof *m->blocks);
    found = true;
  }
  pthread_mutex_unlock(&span_mu);
  return found;
}

static void span_remember(const ParadRegion *r, unsigned long long lo, unsigned long long hi, unsigned size, unsigned is_signed,
                          long long least, long long most, const long long *blocks, size_t nblocks) {
  long long *copy = malloc(2 * nblocks * sizeof *copy);
  if (!copy) return;
  memcpy(copy, blocks, 2 * nblocks * sizeof *copy);
  quick_lock(&span_mu);
  SpanMemo *m = &span_memos[span_next++ % SPAN_MEMOS];
  free(m->blocks);
  *m = (SpanMemo){lo, hi, r->gen, size, is_signed, least, most, copy, nblocks};
  pthread_mutex_unlock(&span_mu);
}

/* Forward sweep: the addresses a gather base + scale * index + [from, to) reads (reverse/rev_shared.c,
 * "gathers") for the indices at [lo, hi), each `size` bytes, signed or not: out[0] the lowest, out[1] one
 * past the highest (~0 and 0 for no indices: nothing to widen the range with). In a region, the run is
 * kept as the thread's run of gather number `gather` (-1: none) where it is the longest so far. */
void __parad_rt_index_span(unsigned long long lo, unsigned long long hi, unsigned size, unsigned is_signed,
                           unsigned long long base, long long scale, long long from, long long to, unsigned long long *out,
                           int gather) {
  long long least = 0, most = 0;
  size_t n = lo < hi ? (size_t)(hi - lo) / size : 0;
  if (!n) {
    out[0] = ~0ull, out[1] = 0;
    return;
  }
  ParadTape *t = __parad_rt_current;
  ParadRegion *region = t && !t->task ? t->region : NULL;
  GatherRun *keep = region && region->gathers && gather >= 0 && gather < MAX_GATHERS
                        ? &region->gathers[(size_t)t->region_thread * MAX_GATHERS + (size_t)gather]
                        : NULL;
  size_t block = index_block(n), nblocks = (n + block - 1) / block;
  if (keep && keep->blocks && keep->hi - keep->lo >= hi - lo) keep = NULL; /* not longer than the one kept */
  if (keep) {
    free(keep->blocks);
    *keep = (GatherRun){lo, hi, base, scale, from, to, size, malloc(2 * nblocks * sizeof *keep->blocks), nblocks};
    if (!keep->blocks) keep = NULL;
  }
  ParadRegion *r = region && n >= SPAN_MEMO_LEAST ? region : NULL;
  if (r && span_memo(r, lo, hi, size, is_signed, &least, &most, keep)) {
    __parad_rt_gathered_span(base, scale, from, to, least, most, out);
    return;
  }
  const char *at = (const char *)(uintptr_t)lo;
  long long *blocks = keep ? keep->blocks : r ? malloc(2 * nblocks * sizeof *blocks) : NULL;
  if (blocks) {
    for (size_t b = 0; b < nblocks; b++) {
      size_t first = b * block, count = n - first < block ? n - first : block;
      __parad_rt_index_least_most(at + first * size, count, size, is_signed, &blocks[2 * b], &blocks[2 * b + 1]);
      if (!b || blocks[2 * b] < least) least = blocks[2 * b];
      if (!b || blocks[2 * b + 1] > most) most = blocks[2 * b + 1];
    }
  } else {
    __parad_rt_index_least_most(at, n, size, is_signed, &least, &most);
  }
  if (r && blocks) span_remember(r, lo, hi, size, is_signed, least, most, blocks, nblocks);
  if (blocks && !keep) free(blocks);
  __parad_rt_gathered_span(base, scale, from, to, least, most, out);
}

/* ---- a gather's clean stretch (reverse/rev_shared.c "gathers") ----
 * Reverse sweep, once the thread's own part [own_lo, own_hi) of gather number `gather`'s object is known:
 * the longest stretch [out[0], out[1]) of the thread's longest index run whose blocks' gathers read only
 * the own part (empty where there is none). A run of the gather's loop inside it adds plainly,
 * with no test per element. */
void __parad_rt_gather_stretch(int gather, unsigned long long own_lo, unsigned long long own_hi, unsigned long long *out) {
  ParadTape *t = __parad_rt_current;
  ParadRegion *r = t && !t->task ? t->region : NULL;
  out[0] = out[1] = 0;
  if (!r || !r->gathers || gather < 0 || gather >= MAX_GATHERS || own_lo >= own_hi) return;
  const GatherRun *g = &r->gathers[(size_t)t->region_thread * MAX_GATHERS + (size_t)gather];
  size_t best = 0, best_at = 0, at = 0;
  for (size_t b = 0; g->blocks && b <= g->nblocks; b++) {
    unsigned long long span[2] = {0, 0};
    if (b < g->nblocks) __parad_rt_gathered_span(g->base, g->scale, g->from, g->to, g->blocks[2 * b], g->blocks[2 * b + 1], span);
    if (b < g->nblocks && span[0] >= own_lo && span[1] <= own_hi && span[0] < span[1]) continue;
    if (b - at > best) best = b - at, best_at = at;
    at = b + 1;
  }
  if (!best) return;
  unsigned long long block = (unsigned long long)index_block((size_t)(g->hi - g->lo) / g->size) * g->size;
  unsigned long long end = g->lo + (best_at + best) * block;
  out[0] = g->lo + best_at * block;
  out[1] = end < g->hi ? end : g->hi;
}

/* Reverse sweep, in a build with PARAD_CHECK_CLEAN (reverse/rev_shared.c check_clean): an add taken as the
 * thread's own (a gather's clean run's, a run's decided so) went plainly to `shadow`, outside its own part. */
unsigned long long __parad_rt_clean_adds; /* and how many such adds were checked */

void __parad_rt_clean_violation(unsigned long long shadow) {
  fprintf(stderr, "parad runtime: an adjoint taken as the thread's own went plainly to %#llx, outside thread %d's own part\n", shadow,
          omp_get_thread_num());
  abort();
}

/* ---- chunks of a schedule (reverse/rev_shared.c "chunks") ----
 * A thread's chunks are noted one by one up to MAX_CHUNK_NOTES (the last note holds the chunks past it).
 * Chunks of a static schedule come round at one period: where every chunk's reads of an object fall in the
 * same part of a period of the address space (the same rows of each round of chunks), that part is the
 * thread's period of the object (READ_PERIOD, counted from address 0), and the plan for the whole thread
 * may find its reads apart from the others' with no plan per chunk. */

enum { MAX_CHUNK_NOTES = 512 };

/* The reads of a chunk into the thread's notes, and into its periods. */
static void note_chunk(Chunks *c, int nroots, const unsigned long long *ranges) {
  size_t w = 2 * (size_t)nroots;
  if (!c->period) c->period = xcalloc((size_t)nroots, sizeof *c->period);
  for (int k = 0; k < nroots; k++) {
    unsigned long long lo = ranges[k * RANGE_FIELDS + READ_LO], hi = ranges[k * RANGE_FIELDS + READ_HI];
    ChunkPeriod *p = &c->period[k];
    if (lo >= hi || p->every == ~0ull) continue;
    if (!p->first_hi) { /* the first chunk reading it */
      p->first_lo = lo, p->first_hi = hi;
      continue;
    }
    if (!p->every) { /* the second: the period, and the first's part of it */
      p->every = lo > p->first_lo ? lo - p->first_lo : ~0ull;
      p->lo = p->first_lo % p->every, p->hi = p->lo + (p->first_hi - p->first_lo);
      if (p->every == ~0ull || p->hi > p->every) {
        p->every = ~0ull;
        continue;
      }
    }
    /* a chunk one period after the last is at the same place: no division */
    unsigned long long at = p->last && lo - p->last == p->every ? p->last_at : lo % p->every, end = at + (hi - lo);
    p->last = lo, p->last_at = at;
    if (end > p->every) p->every = ~0ull;
    if (at < p->lo) p->lo = at;
    if (end > p->hi) p->hi = end;
  }
  if (c->notes == MAX_CHUNK_NOTES) { /* the last note widens */
    unsigned long long *last = &c->reads[(c->notes - 1) * w];
    for (int k = 0; k < nroots; k++) {
      unsigned long long lo = ranges[k * RANGE_FIELDS + READ_LO], hi = ranges[k * RANGE_FIELDS + READ_HI];
      if (lo >= hi) continue;
      if (last[2 * k] >= last[2 * k + 1]) last[2 * k] = lo, last[2 * k + 1] = hi;
      if (lo < last[2 * k]) last[2 * k] = lo;
      if (hi > last[2 * k + 1]) last[2 * k + 1] = hi;
    }
  } else {
    if (c->notes == c->cap) {
      c->cap = c->cap ? 2 * c->cap : 16;
      c->reads = realloc(c->reads, c->cap * w * sizeof *c->reads);
      if (!c->reads) fatal("out of memory");
    }
    unsigned long long *note = &c->reads[c->notes++ * w];
    for (int k = 0; k < nroots; k++)
      note[2 * k] = ranges[k * RANGE_FIELDS + READ_LO], note[2 * k + 1] = ranges[k * RANGE_FIELDS + READ_HI];
  }
}

static Chunks *thread_chunks(void) {
  ParadTape *t = __parad_rt_current;
  return t && !t->task && t->region && t->region->chunks ? &t->region->chunks[t->region_thread] : NULL;
}

/* Forward sweep, as a thread's next chunk starts: what it read since the last start. */
void __parad_rt_shared_chunk(int nroots, const unsigned long long *ranges) {
  Chunks *c = thread_chunks();
  if (!c) return;
  note_chunk(c, nroots, ranges);
  c->starts++;
}

/* The thread's ranges with its reads widened to all of its chunks', and the chunks' period of an object
 * where they have one: it describes all of the thread's reads of the object, as the period of its runs
 * does (a row's fields at one stride), and it is the one that keeps threads apart where chunks are
 * rows dealt round. Where chunks span more than a period (columns dealt round), the runs' stays. */
static unsigned long long *chunks_hull(const Chunks *c, int nroots, const unsigned long long *ranges) {
  unsigned long long *hull = xcalloc((size_t)nroots * RANGE_FIELDS, sizeof *hull);
  memcpy(hull, ranges, (size_t)nroots * RANGE_FIELDS * sizeof *hull);
  for (int k = 0; k < nroots; k++) {
    unsigned long long *h = &hull[k * RANGE_FIELDS];
    for (size_t n = 0; n < c->notes; n++) {
      unsigned long long lo = c->reads[(n * nroots + k) * 2], hi = c->reads[(n * nroots + k) * 2 + 1];
      if (lo >= hi) continue;
      if (lo < h[READ_LO]) h[READ_LO] = lo;
      if (hi > h[READ_HI]) h[READ_HI] = hi;
    }
    const ChunkPeriod *p = &c->period[k];
    if (p->every && p->every != ~0ull)
      h[READ_PERIOD] = p->every, h[PHASE_LO] = p->lo, h[PHASE_HI] = p->hi, h[PHASE_ORIGIN] = 0;
  }
  return hull;
}

/* Forward sweep, as the region's function (or the task's) returns: per shared object, RANGE_FIELDS
 * numbers and whether the reverse sweep adds adjoints into its shadow, and per address read throughout,
 * whether the thread never wrote it; whether the notes are all the function may have written. */
void __parad_rt_shared_note(int nroots, const unsigned long long *ranges, int nsums, const unsigned char *may_sum,
                            const unsigned char *adds, int all_noted) {
  ParadTape *t = __parad_rt_current;
  if (t && t->task) {
    task_note(t, nroots, ranges, nsums, may_sum, adds);
    return;
  }
  if (!t || !t->region) return;
  ParadRegion *r = t->region;
  int id = omp_get_thread_num();
  unsigned long long *hull = NULL;
  Chunks *c = r->chunks ? &r->chunks[id] : NULL;
  if (c && c->starts) { /* the last chunk's reads; the thread's reads are all of its chunks' */
    note_chunk(c, nroots, ranges);
    ranges = hull = chunks_hull(c, nroots, ranges);
  }
  quick_lock(&r->mu);
  if (!r->ranges) {
    r->nroots = nroots;
    r->nsums = nsums;
    r->ranges = xcalloc((size_t)r->nthreads * RANGE_FIELDS * (size_t)(nroots ? nroots : 1), sizeof *r->ranges);
    r->may_sum = xcalloc((size_t)r->nthreads * (size_t)(nsums ? nsums : 1), 1);
    r->priv = xcalloc((size_t)r->nthreads * (size_t)(nroots ? nroots : 1), sizeof *r->priv);
  }
  r->noted++;
  r->unnoted |= !all_noted;
  pthread_mutex_unlock(&r->mu);
  if (nroots != r->nroots || nsums != r->nsums) fatal("a parallel region's threads ran different functions");
  memcpy(&r->ranges[(size_t)id * RANGE_FIELDS * nroots], ranges, RANGE_FIELDS * (size_t)nroots * sizeof *ranges);
  memcpy(&r->may_sum[(size_t)id * nsums], may_sum, (size_t)nsums);
  if (r->copies && r->ncopies != nroots) fatal("a parallel region's threads ran different functions");
  region_copy_inputs(r, id, ranges, nroots);
  free(hull);
}

/* Forward sweep, before the notes, in a region whose objects are noted per stage: their stages (every
 * thread's function has the same). Accesses in different stages are apart by a barrier: one thread's
 * reads in one never meet another's adjoint updates in another. */
void __parad_rt_shared_stages(int nroots, const unsigned char *stage) {
  ParadTape *t = __parad_rt_current;
  ParadRegion *r = t && !t->task ? t->region : NULL;
  if (!r) return;
  quick_lock(&r->mu);
  if (!r->stage) {
    r->stage = xcalloc((size_t)(nroots ? nroots : 1), 1);
    memcpy(r->stage, stage, (size_t)nroots);
  }
  pthread_mutex_unlock(&r->mu);
}

static bool same_stage(const ParadRegion *r, int k, int m) { return !r->stage || r->stage[k] == r->stage[m]; }

static unsigned long long field(ParadRegion *r, int thread, int root, int which) {
  return r->ranges[((size_t)thread * r->nroots + root) * RANGE_FIELDS + which];
}

/* Whether one thread's (or task's) notes, RANGE_FIELDS per object, say it wrote into [lo, hi) through
 * any object. Its own reads of what it wrote are not separated from the write by a barrier: the reverse
 * of the write reads the adjoint the reads added, which must not wait in a buffer. (Other threads' writes
 * are: the barrier's adjoint adds the buffer; other tasks' by the end of the adjoint task.) */
/* Whether an object other than `but` (-1: any) wrote in [lo, hi). */
static bool wrote_in_but(const unsigned long long *ranges, int nroots, unsigned long long lo, unsigned long long hi, int but) {
  for (int m = 0; m < nroots; m++) {
    unsigned long long c = ranges[m * RANGE_FIELDS + WRITTEN_LO], d = ranges[m * RANGE_FIELDS + WRITTEN_HI];
    if (m != but && c < d && c < hi && d > lo) return true;
  }
  return false;
}

static bool wrote_in(const unsigned long long *ranges, int nroots, unsigned long long lo, unsigned long long hi) {
  return wrote_in_but(ranges, nroots, lo, hi, -1);
}

/* Whether one thread's notes say it wrote into [lo, hi) through an object of object k's stage. */
static bool wrote_in_stage(const ParadRegion *r, const unsigned long long *ranges, int k, unsigned long long lo, unsigned long long hi) {
  for (int m = 0; m < r->nroots; m++) {
    unsigned long long c = ranges[m * RANGE_FIELDS + WRITTEN_LO], d = ranges[m * RANGE_FIELDS + WRITTEN_HI];
    if (same_stage(r, k, m) && c < d && c < hi && d > lo) return true;
  }
  return false;
}

/* A private buffer p for the floats of e bytes read at [rlo, rhi), whose shadow is delta bytes on, less the
 * part [lo, hi) added into directly (none when lo == hi): told in plan; false when none could be had. */
static bool keep_private(Private *p, unsigned long long *plan, unsigned long long rlo, unsigned long long rhi,
                         unsigned long long lo, unsigned long long hi, unsigned long long delta, unsigned e) {
  p->buffer = __parad_rt_scratch_take(rhi - rlo);
  if (!p->buffer) return false; /* atomic adds instead */
  p->base = rlo, p->len = rhi - rlo, p->delta = delta, p->elem = e;
  unsigned long long below = lo < hi ? (lo - rlo + e - 1) / e * e : 0, from = lo < hi ? (hi - rlo) / e * e : 0;
  p->edge_lo = rlo + below, p->edge_hi = rlo + (from > below ? from : below);
  memset(p->buffer, 0, below);
  memset(p->buffer + (p->edge_hi - rlo), 0, p->len - (p->edge_hi - rlo));
  plan[PRIVATE_BASE] = p->base + delta; /* in the shadow's addresses: the generated code holds those */
  plan[PRIVATE_LEN] = p->len;
  plan[PRIVATE_BUFFER] = (unsigned long long)(size_t)p->buffer;
  plan[PRIVATE_LO] = p->base;
  plan[BUFFER_WHOLE] = lo >= hi && rlo % e == 0;
  return true;
}

/* Whether thread `id`'s reads of object k and thread `other`'s of object m cannot meet though their ranges
 * do: both strided by one period, in parts of it apart (the columns of a row-major matrix two threads
 * share out). */
static bool periods_apart(ParadRegion *r, int id, int k, int other, int m) {
  unsigned long long p = field(r, id, k, READ_PERIOD);
  if (!p || p == ~0ull || p != field(r, other, m, READ_PERIOD)) return false;
  if ((field(r, id, k, PHASE_ORIGIN) - field(r, other, m, PHASE_ORIGIN)) % p) return false; /* periods not in step */
  return field(r, id, k, PHASE_HI) <= field(r, other, m, PHASE_LO) || field(r, other, m, PHASE_HI) <= field(r, id, k, PHASE_LO);
}

/* The spans of other threads' reads of objects that may meet thread id's reads of object k (k < 0: any
 * object), sorted by start and merged where they meet. Each thread's notes of an object come in the order
 * of its chunks, mostly rising: each run of them is sorted apart (where it is not already), then the runs
 * are merged two by two. */
static Span *others_reads(ParadRegion *r, int id, int k, size_t *count) {
  int n = r->nroots;
  Span *v = NULL;
  size_t len = 0, cap = 0, nruns = 0, *runs = xcalloc((size_t)r->nthreads * (size_t)n + 1, sizeof *runs);
  for (int other = 0; other < r->nthreads; other++) {
    const Chunks *o = &r->chunks[other];
    for (int m = 0; other != id && m < n; m++) {
      if (k >= 0 && (!same_stage(r, k, m) || periods_apart(r, id, k, other, m))) continue;
      size_t from = len;
      if (!o->notes && field(r, other, m, READ_LO) < field(r, other, m, READ_HI))
        push_span(&v, &len, &cap, field(r, other, m, READ_LO), field(r, other, m, READ_HI));
      for (size_t j = 0; j < o->notes; j++) {
        unsigned long long lo = o->reads[(j * n + m) * 2], hi = o->reads[(j * n + m) * 2 + 1];
        if (lo < hi) push_span(&v, &len, &cap, lo, hi);
      }
      bool sorted = true;
      for (size_t j = from + 1; j < len && sorted; j++) sorted = span_order(&v[j - 1], &v[j]) <= 0;
      if (!sorted) qsort(v + from, len - from, sizeof *v, span_order);
      if (len > from) runs[nruns++] = from;
    }
  }
  runs[nruns] = len;
  Span *tmp = xcalloc(len ? len : 1, sizeof *tmp);
  for (size_t width = 1; width < nruns; width *= 2) { /* runs i and i + width into one */
    for (size_t i = 0; i + width < nruns; i += 2 * width) {
      size_t a = runs[i], mid = runs[i + width], end = runs[i + 2 * width < nruns ? i + 2 * width : nruns], b = mid, t = a;
      while (a < mid || b < end) tmp[t++] = b == end || (a < mid && v[a].lo <= v[b].lo) ? v[a++] : v[b++];
      memcpy(v + runs[i], tmp + runs[i], (end - runs[i]) * sizeof *v);
    }
  }
  free(tmp);
  free(runs);
  size_t kept = 0;
  for (size_t j = 0; j < len; j++) {
    if (kept && v[j].lo <= v[kept - 1].hi) {
      if (v[j].hi > v[kept - 1].hi) v[kept - 1].hi = v[j].hi;
    } else {
      v[kept++] = v[j];
    }
  }
  *count = kept;
  return v;
}

/* Reverse sweep, as thread id starts: for each object whose plan goes by chunk, the others' reads. */
static void gather_others(ParadRegion *r, int id) {
  Chunks *c = &r->chunks[id];
  int n = r->nroots;
  c->others = xcalloc((size_t)n, sizeof *c->others);
  c->nothers = xcalloc((size_t)n, sizeof *c->nothers);
  for (int k = 0; k < n; k++) {
    if (!c->by_chunk[k]) continue;
    bool apart = false; /* some pair of objects whose periods or stages keep them apart: a list of its own */
    for (int other = 0; other < r->nthreads && !apart; other++)
      for (int m = 0; other != id && m < n && !apart; m++) apart = !same_stage(r, k, m) || periods_apart(r, id, k, other, m);
    if (apart) {
      c->others[k] = others_reads(r, id, k, &c->nothers[k]);
      continue;
    }
    if (!c->common) c->common = others_reads(r, id, -1, &c->ncommon);
    c->others[k] = c->common;
    c->nothers[k] = c->ncommon;
  }
}

enum { MAX_GAP_WALK = 64 }; /* spans of others looked at per chunk and object */

/* The first span of v (sorted, disjoint) that ends past `at` (n if none). */
static size_t first_past(const Span *v, size_t n, unsigned long long at) {
  size_t a = 0, b = n;
  while (a < b) {
    size_t m = a + (b - a) / 2;
    if (v[m].hi <= at) a = m + 1;
    else b = m;
  }
  return a;
}

/* A part of [clo, chi) that no span of v covers, into [lo, hi) (empty: 0, 0): the one around [mlo, mhi)
 * where that is not empty (a part no span meets), else the largest. */
static void own_gap(const Span *v, size_t n, unsigned long long clo, unsigned long long chi, unsigned long long mlo,
                    unsigned long long mhi, unsigned long long *lo, unsigned long long *hi) {
  if (mlo < mhi) {
    size_t j = first_past(v, n, mlo); /* starts at or past mhi: [mlo, mhi) is uncovered */
    *lo = j > 0 && v[j - 1].hi > clo ? v[j - 1].hi : clo;
    *hi = j < n && v[j].lo < chi ? v[j].lo : chi;
    return;
  }
  unsigned long long at = clo;
  *lo = *hi = 0;
  size_t a = first_past(v, n, clo), j = a;
  for (; j < n && v[j].lo < chi && j - a < MAX_GAP_WALK; j++) {
    if (v[j].lo > at && v[j].lo - at > *hi - *lo) *lo = at, *hi = v[j].lo;
    if (v[j].hi > at) at = v[j].hi;
  }
  bool walked = j == n || v[j].lo >= chi; /* else the rest is not looked at: not the thread's own */
  if (walked && at < chi && chi - at > *hi - *lo) *lo = at, *hi = chi;
}

/* The own part [lo, hi) of the reads [rlo, rhi) into a plan: in the shadow's addresses too (~0: no address
 * is at or past it, where the distance to the shadow is unknown or the part empty), and whether it is all
 * of them. */
static void set_own(unsigned long long *plan, unsigned long long lo, unsigned long long hi, unsigned long long rlo,
                    unsigned long long rhi, unsigned long long delta) {
  plan[OWN_LO] = lo;
  plan[OWN_HI] = hi;
  plan[OWN_SHADOW_LO] = delta && lo < hi ? lo + delta : ~0ull;
  plan[OWN_WHOLE] = lo < hi && lo == rlo && hi == rhi;
}

/* Chunk `chunk` of thread id's: for each object whose plan goes by chunk, its own part of what the chunk
 * read, into the plan's OWN_ fields (the private buffer's are the thread's). */
static void chunk_plan(ParadRegion *r, int id, size_t chunk, unsigned long long *own) {
  Chunks *c = &r->chunks[id];
  int n = r->nroots;
  const unsigned long long *reads = &c->reads[chunk * 2 * (size_t)n];
  for (int k = 0; k < n; k++) {
    if (!c->by_chunk[k]) continue;
    unsigned long long clo = reads[2 * k], chi = reads[2 * k + 1], lo = 0, hi = 0;
    /* the part of the chunk in the thread's own part stays in the chunk's: the private buffer never
       touches the thread's own part (keep_private) */
    unsigned long long mlo = clo > c->own_lo[k] ? clo : c->own_lo[k], mhi = chi < c->own_hi[k] ? chi : c->own_hi[k];
    if (clo < chi) own_gap(c->others[k], c->nothers[k], clo, chi, mlo, mhi, &lo, &hi);
    set_own(&own[PLAN_FIELDS * k], lo, hi, clo, chi, field(r, id, k, SHADOW_DELTA));
  }
}

/* Reverse sweep, as the reverse of a chunk of thread id's starts (after the chunk that followed it): its own
 * parts, where they go by chunk. */
void __parad_rt_shared_chunk_plan(int nroots, unsigned long long *own) {
  Chunks *c = thread_chunks();
  ParadRegion *r = c ? __parad_rt_current->region : NULL;
  if (!r || !r->ranges || r->nroots != nroots || !c->by_chunk) return;
  if (!c->cursor) fatal("the reverse sweep of a parallel region met more chunks of a schedule than its forward sweep");
  chunk_plan(r, __parad_rt_current->region_thread, --c->cursor, own);
}

/* Reverse sweep, after the plan: how many chunk starts, from the last, the generated code passes before it
 * asks for plans: those that the last note holds the chunks before of (all of them where no plan goes by
 * chunk: the tail of a schedule of many small chunks costs no call per chunk). */
unsigned long long __parad_rt_shared_chunk_skip(void) {
  Chunks *c = thread_chunks();
  if (!c || !c->notes) return 0;
  return c->by_chunk ? c->starts - (c->notes - 1) : c->starts;
}

/* Private buffers are kept up to this size per object and thread (the buffer mirrors the read range). */
enum { PRIVATE_LIMIT = 64 << 20 };

/* The part [lo, hi) of what thread id read of object k that no other thread read (0, 0: none). */
static void own_part(ParadRegion *r, int id, int k, unsigned long long *plo, unsigned long long *phi) {
  unsigned long long lo = field(r, id, k, READ_LO), hi = field(r, id, k, READ_HI);
  for (int other = 0; other < r->nthreads && lo < hi; other++) {
    if (other == id) continue;
    for (int m = 0; m < r->nroots && lo < hi; m++) {
      unsigned long long c = field(r, other, m, READ_LO), d = field(r, other, m, READ_HI);
      if (c >= d || d <= lo || c >= hi || !same_stage(r, k, m) || periods_apart(r, id, k, other, m)) continue; /* empty, or apart */
      if (c <= lo) lo = d;
      else if (d >= hi) hi = c;
      else if (c - lo >= hi - d) hi = c; /* inside: keep the larger side */
      else lo = d;
    }
  }
  if (lo >= hi) lo = hi = 0;
  *plo = lo, *phi = hi;
}

/* Whether thread id may keep a private buffer for its reads [rlo, rhi) of object k (of floats of elem bytes). */
static bool may_keep_private(ParadRegion *r, int id, int k, unsigned elem, unsigned long long rlo, unsigned long long rhi) {
  const unsigned long long *mine = &r->ranges[(size_t)id * RANGE_FIELDS * r->nroots];
  return elem && field(r, id, k, SHADOW_DELTA) && rlo < rhi && rhi - rlo <= PRIVATE_LIMIT && !wrote_in_stage(r, mine, k, rlo, rhi);
}

/* An object is small beside the thread's whole buffers when this many of it fit in them. */
enum { SMALL_BESIDE = 8 };

/* Reverse sweep, as the region's reverse function starts. Per object k, PLAN_FIELDS numbers from
 * own[PLAN_FIELDS k]: the part [lo, hi) of this thread's range where no other thread read what it read
 * (nothing where the forward sweep noted nothing; the other threads' reads may lie between its own where
 * the periods say so); the thread's private buffer for the rest: the shadow address it mirrors
 * from, its length, and the buffer (0, 0, 0 when none); lo in the shadow's addresses (all ones where
 * the distance to the shadow is unknown); and the buffer's start in the object's addresses. elem[k]: the
 * size of the floats the object's adjoints are (4, 8), 0 where they may not be kept apart. */
void __parad_rt_shared_plan(int nroots, unsigned long long *own, int nsums, unsigned char *may_sum, const unsigned char *elem) {
  ParadTape *t = __parad_rt_current;
  if (t && t->task) {
    task_plan(t, nroots, own, nsums, may_sum, elem);
    return;
  }
  ParadRegion *r = t ? t->region : NULL;
  int id = omp_get_thread_num();
  memset(own, 0, PLAN_FIELDS * (size_t)nroots * sizeof *own);
  if (!r || !r->ranges || r->nroots != nroots || r->nsums != nsums || !no_outer_team()) { /* nothing owned */
    memset(may_sum, 0, (size_t)nsums);
    /* but the copies its forward sweep made, read back instead of records, are its own all the same (a
       region nested in an active one, whose forward sweep copied its inputs too) */
    if (r && r->nroots == nroots) region_plan_copies(r, id, own);
    return;
  }
  Chunks *chunks = r->chunks && r->chunks[id].notes ? &r->chunks[id] : NULL;
  bool by_chunk = false;
  /* the bytes of the objects the thread buffers whole: no part of what it read of them is its own */
  unsigned long long buffered = 0;
  for (int k = 0; k < nroots; k++) { /* each own part, kept in the plan's fields until set_own below */
    unsigned long long rlo = field(r, id, k, READ_LO), rhi = field(r, id, k, READ_HI), *plan = &own[PLAN_FIELDS * k];
    own_part(r, id, k, &plan[OWN_LO], &plan[OWN_HI]);
    if (plan[OWN_LO] >= plan[OWN_HI] && may_keep_private(r, id, k, elem[k], rlo, rhi)) buffered += rhi - rlo;
  }
  for (int k = 0; k < nroots; k++) {
    unsigned long long rlo = field(r, id, k, READ_LO), rhi = field(r, id, k, READ_HI);
    unsigned long long lo = own[PLAN_FIELDS * k + OWN_LO], hi = own[PLAN_FIELDS * k + OWN_HI];
    bool own_whole = lo < hi && lo == rlo && hi == rhi;
    /* a small object whose own part is not all the thread read (another object's range reaching a float
       into it: a padded convolution's input, bounded by its runs, before the kernels that follow it in one
       array) is buffered whole where its range adds little to what the buffers cost anyway: its reads
       then need no decision per run (such decisions cost as much as a convolution's runs of 3 taps) */
    if (!own_whole && lo < hi && (rhi - rlo) * SMALL_BESIDE <= buffered && may_keep_private(r, id, k, elem[k], rlo, rhi)) lo = hi = 0;
    unsigned long long *plan = &own[PLAN_FIELDS * k];
    Private *p = &r->priv[(size_t)id * nroots + k];
    __parad_rt_scratch_give(p->buffer); /* none unless a reverse sweep of the region ran before without finishing */
    p->buffer = NULL;
    unsigned long long delta = field(r, id, k, SHADOW_DELTA);
    set_own(plan, lo, hi, rlo, rhi, delta);
    plan[BUFFER_SKIP_LO] = lo, plan[BUFFER_SKIP_HI] = hi; /* (keep_private) */
    bool shared_part = rlo < rhi && !plan[OWN_WHOLE];
    if (chunks && shared_part) { /* the thread's reads are not all its own: its chunks' may be */
      if (!by_chunk) {
        chunks->by_chunk = xcalloc((size_t)nroots, sizeof *chunks->by_chunk);
        chunks->own_lo = xcalloc((size_t)nroots, sizeof *chunks->own_lo);
        chunks->own_hi = xcalloc((size_t)nroots, sizeof *chunks->own_hi);
      }
      by_chunk = chunks->by_chunk[k] = true;
      chunks->own_lo[k] = lo, chunks->own_hi[k] = hi;
    }
    if (shared_part && may_keep_private(r, id, k, elem[k], rlo, rhi)) keep_private(p, plan, rlo, rhi, lo, hi, delta, elem[k]);
  }
  if (by_chunk) { /* the reverse sweep starts with the last chunk */
    gather_others(r, id);
    chunks->cursor = chunks->notes - 1;
    chunk_plan(r, id, chunks->cursor, own);
  }
  region_plan_copies(r, id, own);
  memcpy(may_sum, &r->may_sum[(size_t)id * nsums], (size_t)nsums);
}

/* The nonzero floats of [from, to) of p's buffer, added into the shadow atomically; the buffer is zero
 * again. Counts the additions. */
static void add_into_shadow(Private *p, unsigned long long from, unsigned long long to, unsigned long long *atomic) {
  for (unsigned long long a = from; a + p->elem <= to; a += p->elem) {
    char *b = p->buffer + (a - p->base);
    void *s = (void *)(size_t)(a + p->delta);
    if (p->elem == 8) {
      double v, x;
      memcpy(&v, b, 8);
      if (v == 0) continue;
      memset(b, 0, 8);
      unsigned long long old = __atomic_load_n((unsigned long long *)s, __ATOMIC_RELAXED), sum;
      do {
        memcpy(&x, &old, 8);
        x += v;
        memcpy(&sum, &x, 8);
      } while (!__atomic_compare_exchange_n((unsigned long long *)s, &old, sum, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    } else {
      float v, x;
      memcpy(&v, b, 4);
      if (v == 0) continue;
      memset(b, 0, 4);
      unsigned old = __atomic_load_n((unsigned *)s, __ATOMIC_RELAXED), sum;
      do {
        memcpy(&x, &old, 4);
        x += v;
        memcpy(&sum, &x, 4);
      } while (!__atomic_compare_exchange_n((unsigned *)s, &old, sum, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    }
    ++*atomic;
  }
}

/* [from, to) of p's buffer added into the shadow with plain adds, of its nonzero floats only: the range a
 * thread read is bounded by the addresses of its runs' first and last iterations, which may lie past the
 * object where a guard skipped them (`if (y + 2 < h) s += t[(y + 2) * w + x]`: two rows past a heap
 * block), and an add of 0 there wrote to memory that is not the shadow's, perhaps another thread's
 * (valgrind saw it; with -ffast-math malloc's own words were overwritten). The adds of zeros were free
 * for the vectoriser; a test per float is not, so a block of floats all zero is skipped first. */
enum { ZERO_BLOCK = 8 };
#define ADD_NONZERO(T, d, v, n)                                                                                   \
  for (size_t i = 0; i < (n); i += ZERO_BLOCK) {                                                               \
    size_t m = (n) - i < ZERO_BLOCK ? (n) - i : ZERO_BLOCK;                                                    \
    bool any = false;                                                                                          \
    for (size_t j = 0; j < m; j++) any |= ((const T *)(v))[i + j] != 0;                                        \
    for (size_t j = 0; any && j < m; j++)                                                                      \
      if (((const T *)(v))[i + j] != 0) ((T *)(d))[i + j] += ((const T *)(v))[i + j];                          \
  }
static void add_plainly(Private *p, unsigned long long from, unsigned long long to) {
  if (from >= to) return;
  void *b = p->buffer + (from - p->base), *s = (void *)(size_t)(from + p->delta);
  size_t n = (size_t)(to - from) / p->elem;
  if (p->elem == 8) {
    ADD_NONZERO(double, s, b, n)
  } else {
    ADD_NONZERO(float, s, b, n)
  }
}
#undef ADD_NONZERO

/* This thread's buffers into the shadows, plainly or (atomic != NULL) atomically, counted there. Only
 * their edges: the part between is untouched. */
static void merge_buffers(Private *priv, int nroots, unsigned long long *atomic) {
  for (int k = 0; priv && k < nroots; k++) {
    Private *p = &priv[k];
    if (!p->buffer) continue;
    if (atomic) {
      add_into_shadow(p, p->base, p->edge_lo, atomic);
      add_into_shadow(p, p->edge_hi, p->base + p->len, atomic);
    } else {
      add_plainly(p, p->base, p->edge_lo);
      add_plainly(p, p->edge_hi, p->base + p->len);
    }
  }
}

/* Reverse sweep, at the end of the region's body (every thread of the team gets there once): once all
 * have arrived, no thread adds into the shadows any more, and the private buffers go in with plain adds,
 * instead of a compare-and-swap per float while others may still add (a correlation matrix's gradient,
 * whose threads all read the whole array, spent 7% of its time there). Each thread takes a slice of each
 * object's addresses and adds every thread's buffer there: one after another, the threads took as long as
 * the adds of all of them (correlation's gradient at 2 threads: 3% of its time, while the other thread
 * waited). Where the threads' shadows of one object lie apart (never seen), one thread adds its buffers
 * after another. */
static bool any_buffer(ParadRegion *r, int k) {
  for (int t = 0; t < r->nthreads; t++)
    if (thread_private(r, t)[k].buffer) return true;
  return false;
}

static void merge_slice(ParadRegion *r, int k, int id) {
  unsigned long long lo = ~0ull, hi = 0, delta = 0;
  for (int t = 0; t < r->nthreads; t++) {
    Private *p = &thread_private(r, t)[k];
    if (!p->buffer) continue;
    if (hi && p->delta != delta) { /* one after another: each thread its own buffer */
      quick_lock(&r->mu);
      merge_buffers(&thread_private(r, id)[k], 1, NULL);
      pthread_mutex_unlock(&r->mu);
      return;
    }
    delta = p->delta;
    if (p->base < lo) lo = p->base;
    if (p->base + p->len > hi) hi = p->base + p->len;
  }
  if (lo >= hi) return;
  unsigned long long n = (unsigned long long)r->nthreads, size = hi - lo;
  unsigned long long from = id ? (lo + size / n * id) & ~63ull : lo, to = id + 1 < r->nthreads ? (lo + size / n * (id + 1)) & ~63ull : hi;
  if (from < lo) from = lo;
  if (to > hi) to = hi;
  for (int t = 0; t < r->nthreads; t++) {
    Private *p = &thread_private(r, t)[k];
    if (!p->buffer) continue;
    unsigned long long a = p->base > from ? p->base : from, b = p->edge_lo < to ? p->edge_lo : to;
    add_plainly(p, a, b);
    a = p->edge_hi > from ? p->edge_hi : from, b = p->base + p->len < to ? p->base + p->len : to;
    add_plainly(p, a, b);
  }
}

/* Counts this thread in and waits for the team: `arrived` reaches `round` times the team's size. */
static void wait_for_team(ParadRegion *r, int *arrived, int round) {
  __atomic_add_fetch(arrived, 1, __ATOMIC_ACQ_REL);
  for (unsigned turns = 0; __atomic_load_n(arrived, __ATOMIC_ACQUIRE) < round * r->nthreads;) wait_a_turn(&turns, r->nthreads);
}

/* One object after another, all threads waiting for each: two objects may be one array reached through
 * two pointers, whose slices would overlap (examples/md's positions: a wrong gradient, 12 runs in 20,
 * without the wait). The last wait also keeps each thread's buffers until no other reads them. */
void __parad_rt_shared_flush_final(void) {
  ParadTape *t = __parad_rt_current;
  ParadRegion *r = t ? t->region : NULL;
  if (!r || !r->priv) return;
  wait_for_team(r, &r->finished, 1);
  for (int k = 0, round = 0; k < r->nroots; k++) {
    if (!any_buffer(r, k)) continue;
    merge_slice(r, k, omp_get_thread_num());
    wait_for_team(r, &r->merged, ++round);
  }
}

/* Reverse sweep: this thread's (or task's) private adjoints go into the shadows. */
void __parad_rt_shared_flush(void) {
  ParadTape *t = __parad_rt_current;
  ParadRegion *r = t ? t->region : NULL;
  int nroots = r ? r->nroots : 0;
  Private *priv = t && t->task ? task_private(t, &nroots) : r ? thread_private(r, omp_get_thread_num()) : NULL;
  unsigned long long atomic = 0;
  merge_buffers(priv, nroots, &atomic);
  if (atomic) __atomic_fetch_add(&__parad_rt_atomic_updates, atomic, __ATOMIC_RELAXED);
}

/* The shadow of a task's block (omp_forward.c, omp_reverse.c): the block's `at` bytes (the task and its
 * private copies, zeroed: the tangents of what the creating code does not set are zero), then a shareds
 * block, which its first word points to as the task's does. The private copies start after the task's
 * header (`header` bytes: 40, 80 for a task loop's), and clang aligns their accesses as the program's own
 * variables (an array of doubles as 16-aligned), which the task's block itself need not be (libomp's is
 * not): the shadow's accesses copy those alignments, and the vectoriser relies on them, so the shadow's
 * private copies start 64-aligned. The allocation's start is kept in the word before the shadow. */
enum { SHADOW_ALIGN = 64 };

void *__parad_rt_task_shadow(size_t at, size_t shareds, size_t header) {
  size_t offset = SHADOW_ALIGN + (SHADOW_ALIGN - header % SHADOW_ALIGN) % SHADOW_ALIGN;
  char *base = aligned_alloc(SHADOW_ALIGN, (offset + at + shareds + SHADOW_ALIGN - 1) / SHADOW_ALIGN * SHADOW_ALIGN);
  if (!base) {
    fprintf(stderr, "parad: out of memory for the shadow of an OpenMP task (%zu bytes)\n", at + shareds);
    abort();
  }
  char *block = base + offset;
  ((void **)block)[-1] = base;
  memset(block, 0, at + shareds);
  if (shareds) *(void **)block = block + at;
  return block;
}

void __parad_rt_task_shadow_free(void *shadow) {
  if (shadow) free(((void **)shadow)[-1]);
}

/* A task loop's chunk: libomp copies the task's block, shadow pointers with it; the chunk gets a shadow
 * block of its own, a copy (with its own shareds), freed by its destructor as any task's. */
void *__parad_rt_task_shadow_copy(const void *shadow, size_t at, size_t shareds, size_t header) {
  char *block = __parad_rt_task_shadow(at, shareds, header);
  memcpy(block, shadow, at + shareds);
  if (shareds) *(void **)block = block + at;
  return block;
}

/* Reverse mode's record of a task (omp_reverse.c): the shadow of its block (as forward mode's, but kept
 * until the reverse sweep has read the adjoints of what the creating code copied into the block) and the
 * tape the task recorded on, a tape of its own since the task may run on any thread at any time before
 * the next wait. The creating code records the record on its own tape; at its spawn's adjoint, the creating
 * thread runs the task's reverse sweep on the task's tape, so that the tasks' tapes form a tree under the
 * tapes of those that created them, and the reverse sweeps run in the reverse order of creation, which is
 * an order the reversed dependences allow. */
typedef struct ParadTaskRecord {
  void *shadow;
  ParadTape *tape; /* NULL until the task runs through the runtime (not at once, under if(0)) */
  int ndeps;       /* the task's dependences, for its adjoint task (copied at the spawn) */
  struct ParadDepend *deps;
  /* A task loop: the chunks' records (libomp copies the block once per chunk), which share the loop's
   * shadow block, so that the adjoints of the values copied into it add up there. */
  struct ParadTaskRecord **chunks;
  size_t nchunks, capchunks;
  char chunks_lock;
  bool chunk; /* one of them: its shadow block is the loop's */
  /* A chunk's loop; and whether the chunk is no chunk but a pattern: libomp splits a task loop of many
   * chunks (more than KMP_TASKLOOP_MIN_TASKS, by default 10 per thread) recursively, copying the block
   * into a new pattern per half, which is copied in turn per chunk and never runs. */
  struct ParadTaskRecord *loop;
  bool pattern;
  int refs;   /* the creating code's reverse sweep, and the adjoint task while it runs */
  /* What its forward sweep noted of the shared memory it touched (as a region's thread's, RANGE_FIELDS per
   * object, a flag per address read throughout), and its private buffers while its reverse sweep runs. */
  int nroots, nsums;
  unsigned long long *ranges;
  unsigned char *may_sum;
  Private *priv;
  /* Inputs read from copies (shared_copy): the dependences' kinds as the program wrote them, and per
   * object the dependence its reads in loops were tested against (1 + its index, negative for an output,
   * 0: none) and the copy of what it read there. */
  unsigned char *kinds;
  int *input_of;
  Copy *copies;
  /* The parallel region the task is one of, and whether its creator is the region's function, which does
   * nothing with adjoints but through tasks and reverses them as adjoint tasks (readers' adjoints, one at a
   * time). */
  ParadRegion *region;
  bool quiet;
  unsigned char *held; /* reverse sweep: per dependence, whether its range is held (readers' adjoints) */
  unsigned char *adds; /* per object, whether its reverse sweep adds adjoints into the object's shadow */
} ParadTaskRecord;

/* libomp's kmp_depend_info: an address, a length and the kind (1 in, 2 out, 3 inout). */
struct ParadDepend {
  intptr_t base;
  size_t len;
  unsigned char flags;
};

void __parad_rt_task_spawn_adjoint(void *loc, void *record, int (*entry)(int, void *));
void __parad_rt_task_wait_adjoints(void *loc);
void __parad_rt_task_resume(void *record);
void __parad_rt_task_end(void *record);
static void free_copies(ParadTaskRecord *r);

/* libomp's entry points, which the adjoint tasks are made with as clang makes tasks */
void *__kmpc_omp_task_alloc(void *loc, int gtid, int flags, size_t size, size_t shareds, int (*entry)(int, void *));
int __kmpc_omp_task(void *loc, int gtid, void *task);
int __kmpc_omp_task_with_deps(void *loc, int gtid, void *task, int ndeps, void *deps, int nnoalias, void *noalias);
int __kmpc_omp_taskwait(void *loc, int gtid);
enum { TASK_HEADER = 40 }; /* kmp_task_t: shareds, routine, part_id, two data words */

void __parad_rt_task_record_release(void *record);

/* A record whose creating code's tape was dropped (a checkpointed loop's step run through split mode for
 * its forward sweep only): no reverse sweep will release it, nor end the task's tape. A task loop's chunks
 * are dropped each on its own. */
static void drop_record(void *record) {
  ParadTaskRecord *r = record;
  if (r->tape) __parad_rt_tape_discard(r->tape);
  r->tape = NULL;
  r->nchunks = 0;
  r->refs = 1;
  __parad_rt_task_record_release(r);
}

/* The parallel region a tape's code runs in: a region thread's, or that of the task whose tape it is. */
static ParadRegion *enclosing_region(ParadTape *t) {
  for (; t; t = t->prev) {
    if (t->region) return t->region;
    if (t->task && t->task->region) return t->task->region;
  }
  return NULL;
}

/* ---- readers' adjoints, one at a time ----
 * The adjoints of the tasks that read a datum (depend(in:)) run at once among themselves, so each adds
 * what it read into a private buffer, added into the shadow with a compare-and-swap per float as it ends
 * (a tiled factorisation's update tasks read two tiles each: at 2 threads those merges took 13% of the
 * gradient). Where nothing but the adjoint tasks of the tasks that name a datum adds into its shadow,
 * `in` turns round as mutexinoutset instead: the readers' adjoints exclude each other (in some order,
 * which adding does not mind) and each adds plainly into what it read of the datum, as the adjoint of its
 * writer does. That holds for a datum when
 *   - every task of the region was made by one creator (siblings: dependences order only those), the
 *     region's function, which does nothing with adjoints but through tasks, reversed as adjoint tasks
 *     (so no other thread of the region adds anything either);
 *   - every task noted what it read and wrote, and no task read or wrote into the datum's range outside
 *     a dependence of its own naming exactly that range (reads of inputs no task names are fine);
 *   - no dependence of another range overlaps it (libomp orders dependences by their address alone).
 * All of it is known once the region's forward sweep is over, before its reverse sweep spawns an adjoint. */

/* The dependence of the task whose range covers [lo, hi) (the smallest), or -1. */
static int naming(const ParadTaskRecord *r, unsigned long long lo, unsigned long long hi) {
  int best = -1;
  for (int d = 0; d < r->ndeps; d++) {
    unsigned long long dlo = (unsigned long long)r->deps[d].base;
    if (lo >= dlo && hi <= dlo + r->deps[d].len && (best < 0 || r->deps[d].len < r->deps[best].len)) best = d;
  }
  return best;
}

/* Forward sweep, as a task ends: its dependences, and what it touched that they do not name, into its
 * region's lists. */
static void note_reader(ParadTaskRecord *r) {
  ParadRegion *g = r->region;
  quick_lock(&g->mu);
  if (!r->quiet || !r->ranges || !r->kinds) g->loose = true;
  for (int d = 0; d < r->ndeps; d++)
    push_span(&g->named, &g->nnamed, &g->capnamed, (unsigned long long)r->deps[d].base, (unsigned long long)r->deps[d].base + r->deps[d].len);
  for (int k = 0; r->ranges && k < r->nroots; k++) {
    const unsigned long long *f = &r->ranges[RANGE_FIELDS * k];
    if (!r->adds[k]) continue; /* pointers and integers: no adjoint */
    unsigned long long spans[2][2] = {{f[READ_LO], f[READ_HI]}, {f[WRITTEN_LO], f[WRITTEN_HI]}};
    for (int i = 0; i < 2; i++)
      if (spans[i][0] < spans[i][1] && naming(r, spans[i][0], spans[i][1]) < 0)
        push_span(&g->unnamed, &g->nunnamed, &g->capunnamed, spans[i][0], spans[i][1]);
  }
  pthread_mutex_unlock(&g->mu);
}

/* Reverse sweep, at the first adjoint spawned: which dependence ranges are held (above). */
static void decide_held(ParadRegion *g) {
  quick_lock(&g->mu);
  if (!g->decided) {
    qsort(g->named, g->nnamed, sizeof *g->named, span_order);
    size_t n = 0;
    for (size_t i = 0; i < g->nnamed; i++) /* distinct ranges */
      if (!n || span_order(&g->named[n - 1], &g->named[i])) g->named[n++] = g->named[i];
    unsigned long long reach = 0; /* the furthest end of the ranges before */
    for (size_t i = 0; i < n && !g->loose; i++) {
      Span *d = &g->named[i];
      bool held = reach <= d->lo && (i + 1 == n || d->hi <= g->named[i + 1].lo);
      reach = d->hi > reach ? d->hi : reach;
      for (size_t u = 0; u < g->nunnamed && held; u++) held = g->unnamed[u].hi <= d->lo || d->hi <= g->unnamed[u].lo;
      d->held = held;
    }
    g->held = g->named, g->nheld = n;
    g->decided = true;
  }
  pthread_mutex_unlock(&g->mu);
}

/* Whether [lo, hi), a dependence's range, is held in its region. */
static bool held_range(const ParadRegion *g, unsigned long long lo, unsigned long long hi) {
  Span key = {lo, hi, false};
  const Span *s = g && g->decided ? bsearch(&key, g->held, g->nheld, sizeof key, span_order) : NULL;
  return s && s->held;
}

void *__parad_rt_task_record(void *shadow) {
  ParadTaskRecord *r = calloc(1, sizeof *r);
  if (!r) {
    fprintf(stderr, "parad: out of memory for the record of an OpenMP task\n");
    abort();
  }
  r->shadow = shadow;
  r->refs = 1;
  r->region = enclosing_region(__parad_rt_current);
  if (r->region) __atomic_store_n(&r->region->tasked, true, __ATOMIC_RELAXED);
  __parad_rt_ckpt_track(r, drop_record); /* in a checkpointed loop's step, dropped with the step's tape */
  return r;
}

void *__parad_rt_task_record_shadow(void *record) { return ((ParadTaskRecord *)record)->shadow; }

void __parad_rt_task_begin(void *record) {
  ParadTape *t = __parad_rt_tape_begin();
  t->task = record;
  ((ParadTaskRecord *)record)->tape = t;
}

void __parad_rt_task_suspend(void *record) {
  ParadTaskRecord *r = record;
  if (r->region) note_reader(r);
  __parad_rt_tape_suspend(r->tape);
}

/* At the adjoint of the task's spawn: its tape made current. A task that never ran before the creating
 * code's forward sweep ended cannot be reversed: the program's waits did not cover it. */
void __parad_rt_task_resume(void *record) {
  ParadTaskRecord *r = record;
  if (!r->tape) {
    fprintf(stderr, "parad: an OpenMP task had not run when its reverse sweep was due: wait for it (taskwait, "
                    "taskgroup, or the end of the parallel region) before the differentiated function returns\n");
    abort();
  }
  __parad_rt_tape_resume(r->tape);
}

void __parad_rt_task_end(void *record) {
  ParadTaskRecord *r = record;
  free_private(r->priv, r->nroots);
  free_copies(r);
  __parad_rt_tape_end(r->tape);
  r->tape = NULL;
}

/* ---- a task's inputs, read in the reverse sweep from copies (reverse/rev_shared.c) ----
 * A task's object that its function only reads, in loops, at addresses inside one of its depend(in:)
 * dependences, is not recorded read by read: as the function returns, what it read of the dependence is
 * copied, and the reverse sweep reads there. The values are those it read: nothing else writes what a
 * task reads while it runs (that would be a data race: the function has no synchronisation inside), and
 * the task itself writing there stops the program. A tile a tiled factorisation's update reads 64 times
 * costs its size once, instead of 8 bytes per multiply-add. */

/* Copies of inputs are made up to this size per dependence. */
enum { COPY_LIMIT = 64 << 20 };

/* ---- copies shared by content ----
 * A region that reads what an earlier region (or task) copied, unchanged since, shares that copy instead
 * of making another: a CG iteration's update reads p at the rows its product read it (and copied it),
 * and a tiled factorisation's tasks read the same tile again and again. Whether the memory is unchanged
 * is told by comparing it with the copy, so that nothing between the two (serial code, another region,
 * aliasing) needs to be known: equal bytes are the values a copy of its own would hold. A block lives
 * while a copy uses it (refs). The recent blocks are listed for the comparison. */
struct CopyBlock {
  unsigned refs;
  unsigned long long lo, len; /* the memory copied, counted against the tape budget */
  char *data;
  /* The last region a copy of it was made or shared in (its gen; 0: none), the part of it that copy
   * covered, and, where that copy was a streamed output's, its thread and object (else -1). */
  unsigned long long gen, gen_lo, gen_hi;
  int writer, written;
};

/* ---- copies trusted ----
 * Comparing costs as much as copying: a CG iteration compares p and q with the copies the product made,
 * a pass over each. Where the region before held the memory unchanged since the copy, that pass can be
 * spared. Block b holds, over [gen_lo, gen_hi), what the memory held as the copy was made or shared in
 * region gen (R). R, complete by the time the next region forks, left it so where no thread of R wrote
 * there, by any object, but for the streamed output whose copy it is (whose one store is in a loop run
 * once per call, and ends before the copy: reverse/rev_shared.c "streamed outputs"). The next region's
 * (R') thread then finds those values where the compiler found that:
 *   - between the forks of R and R', nothing was written but local variables, whose addresses R' got
 *     (__parad_rt_region_begin), and no call could write (no other region forked: it would have been
 *     R'); the tape's last region is R;
 *   - R' wrote nothing there before the copy: for a copy of what a thread read, made as it returns, a
 *     write by the thread stops the program (aliased_input), as does another thread's in the reverse
 *     sweep (region_plan_copies); a run's copy, made as the run starts, is trusted where nothing before
 *     the run in its function writes or synchronises: another thread writing what the run reads would
 *     be a race.
 * R's notes must be all its writes: every thread noted, no region forked inside it, no tasks, no chunks
 * (a chunk's notes are read ranges). Regions in between (a CG iteration's update between its product
 * and the next product) may have left the memory as they found it too: the same holds through a chain
 * of them (unchanged_since). */
typedef enum { COPY_TASK, COPY_INPUT, COPY_RUN, COPY_RUN_FIRST, COPY_OUTPUT } CopyKind;
enum { CHAIN_AT_MOST = 16 }; /* regions back: a solver's iteration forks a few */

/* Region r, complete: whether its notes are all it wrote; once, per object, the hull of its threads' writes. */
static bool region_summary(ParadRegion *r) {
  quick_lock(&r->mu);
  if (!r->summary) {
    bool usable = r->noted == r->nthreads && !r->unnoted && !__atomic_load_n(&r->nested, __ATOMIC_RELAXED) &&
                  !__atomic_load_n(&r->tasked, __ATOMIC_RELAXED) && !r->creator && !r->nnamed && !r->nunnamed && r->ranges;
    for (int t = 0; usable && r->chunks && t < r->nthreads; t++) usable = !r->chunks[t].starts;
    if (usable) {
      r->hulls = xcalloc(2 * (size_t)(r->nroots ? r->nroots : 1), sizeof *r->hulls);
      for (int k = 0; k < r->nroots; k++) {
        unsigned long long *h = &r->hulls[2 * k];
        h[0] = ~0ull;
        for (int t = 0; t < r->nthreads; t++) {
          unsigned long long c = field(r, t, k, WRITTEN_LO), d = field(r, t, k, WRITTEN_HI);
          if (c < d) h[0] = c < h[0] ? c : h[0], h[1] = d > h[1] ? d : h[1];
        }
      }
    }
    r->summary = usable ? 1 : 2;
  }
  pthread_mutex_unlock(&r->mu);
  return r->summary == 1;
}

/* Whether region r, complete, wrote nothing in [lo, hi) but (where writer >= 0) thread writer's object
 * `written`. */
static bool region_kept(ParadRegion *r, unsigned long long lo, unsigned long long hi, int writer, int written) {
  if (!region_summary(r)) return false;
  for (int k = 0; k < r->nroots; k++) {
    if (!(r->hulls[2 * k] < hi && r->hulls[2 * k + 1] > lo)) continue; /* no thread wrote near */
    for (int t = 0; t < r->nthreads; t++) {
      unsigned long long c = field(r, t, k, WRITTEN_LO), d = field(r, t, k, WRITTEN_HI);
      if (!(t == writer && k == written) && c < d && c < hi && d > lo) return false;
    }
  }
  return true;
}

/* Whether [lo, hi) holds, as region r forks, what it held as region gen ended, which wrote nothing there but
 * (where writer >= 0) thread writer's object `written`: through a chain of regions each forked after
 * the one before it with only locals written between, each of them, gen's aside, writing nothing there. */
static bool unchanged_since(const ParadRegion *r, unsigned long long gen, unsigned long long lo, unsigned long long hi,
                            int writer, int written) {
  for (int steps = 0; r && r->after && gen && steps < CHAIN_AT_MOST; steps++, r = r->after) {
    if (r->stack_lo < hi && r->stack_hi > lo) return false;
    if (r->after->gen == gen) return region_kept(r->after, lo, hi, writer, written);
    if (r->after->gen < gen || !region_kept(r->after, lo, hi, -1, -1)) return false;
  }
  return false;
}

/* Whether b holds what [lo, hi) holds now, for a copy of this kind in region r (NULL: a task's). */
static bool trusted(const CopyBlock *b, unsigned long long lo, unsigned long long hi, const ParadRegion *r, CopyKind kind) {
  if (!r || lo < b->gen_lo || hi > b->gen_hi || (kind != COPY_INPUT && kind != COPY_RUN_FIRST)) return false;
  return unchanged_since(r, b->gen, lo, hi, b->writer, b->written);
}
enum { RECENT_COPIES = 64, COMPARED_AT_MOST = 2 }; /* a few per thread of a large team */
static pthread_mutex_t copies_mu = PTHREAD_MUTEX_INITIALIZER;
static CopyBlock *recent[RECENT_COPIES]; /* the most recent first */

static void forget_block(CopyBlock *b) {
  for (int i = 0; i < RECENT_COPIES; i++)
    if (recent[i] == b) {
      memmove(&recent[i], &recent[i + 1], sizeof *recent * (size_t)(RECENT_COPIES - 1 - i));
      recent[RECENT_COPIES - 1] = NULL;
      return;
    }
}

static void release_block(CopyBlock *b) {
  quick_lock(&copies_mu);
  bool last = --b->refs == 0;
  if (last) forget_block(b);
  pthread_mutex_unlock(&copies_mu);
  if (!last) return;
  __parad_rt_tape_budget_give(b->len);
  __parad_rt_scratch_give(b);
}

/* A recent block holding what [lo, hi) holds now, with a reference taken; NULL if none. */
static CopyBlock *shared_block(unsigned long long lo, unsigned long long hi, const ParadRegion *r, CopyKind kind) {
  CopyBlock *found = NULL;
  for (int tried = 0, i = 0; !found && tried < COMPARED_AT_MOST; i++) {
    quick_lock(&copies_mu);
    while (i < RECENT_COPIES && recent[i] && !(recent[i]->lo <= lo && hi <= recent[i]->lo + recent[i]->len)) i++;
    CopyBlock *b = i < RECENT_COPIES ? recent[i] : NULL;
    if (b) b->refs++; /* held while compared */
    bool sure = b && trusted(b, lo, hi, r, kind);
    pthread_mutex_unlock(&copies_mu);
    if (!b) break;
    if (sure) return b;
    tried++;
    if (memcmp(b->data + (lo - b->lo), (const void *)(uintptr_t)lo, hi - lo) == 0) found = b;
    else release_block(b);
  }
  return found;
}

/* Copies n bytes from src to dst, which share their alignment modulo 64. A large copy is read back only
 * in the reverse sweep, long after: its stores bypass the caches (no read for ownership of the lines). */
static void copy_out_of_cache(char *dst, const char *src, size_t n) {
#ifdef __SSE2__
  if (n >= 64 * 1024) {
    size_t head = (size_t)(-(uintptr_t)dst & 15);
    memcpy(dst, src, head);
    dst += head, src += head, n -= head;
    for (; n >= 64; n -= 64, dst += 64, src += 64) {
      __m128i a = _mm_load_si128((const __m128i *)src), b = _mm_load_si128((const __m128i *)(src + 16));
      __m128i c = _mm_load_si128((const __m128i *)(src + 32)), d = _mm_load_si128((const __m128i *)(src + 48));
      _mm_stream_si128((__m128i *)dst, a), _mm_stream_si128((__m128i *)(dst + 16), b);
      _mm_stream_si128((__m128i *)(dst + 32), c), _mm_stream_si128((__m128i *)(dst + 48), d);
    }
    _mm_sfence();
  }
#endif
  memcpy(dst, src, n);
}

/* c: a copy of [lo, hi), counted against the tape budget where it is not shared; of this kind, in region r
 * (NULL: a task's), for thread `thread`'s object k. */
static void copy_range(Copy *c, unsigned long long lo, unsigned long long hi, ParadRegion *r, CopyKind kind, int thread, int k) {
  CopyBlock *b = shared_block(lo, hi, r, kind);
  if (!b) {
    b = __parad_rt_scratch_take(sizeof *b + hi - lo + 64); /* pooled: a copy per region and step faults no pages in */
    if (!b) fatal("out of memory for the copy of what a thread or task read");
    __parad_rt_tape_budget_take(hi - lo);
    char *start = (char *)(b + 1);
    b->data = start + ((lo - (unsigned long long)(uintptr_t)start) & 63);
    b->lo = lo, b->len = hi - lo, b->refs = 1;
    b->gen = b->gen_lo = b->gen_hi = 0; /* another thread may look at it as soon as it is in `recent` */
    b->writer = b->written = -1;
    copy_out_of_cache(b->data, (const char *)(uintptr_t)lo, hi - lo);
    quick_lock(&copies_mu);
    memmove(&recent[1], &recent[0], sizeof *recent * (RECENT_COPIES - 1));
    recent[0] = b;
    pthread_mutex_unlock(&copies_mu);
  }
  if (r) { /* the first copy in r says what b holds as r ends */
    quick_lock(&copies_mu);
    if (b->gen != r->gen) {
      b->gen = r->gen, b->gen_lo = lo, b->gen_hi = hi;
      b->writer = kind == COPY_OUTPUT ? thread : -1, b->written = k;
    }
    pthread_mutex_unlock(&copies_mu);
  }
  c->block = b;
  c->data = b->data + (lo - b->lo);
  c->lo = lo, c->len = hi - lo;
}

static void drop_copies(Copy *copies, int n) {
  for (int k = 0; copies && k < n; k++) {
    if (copies[k].block) release_block(copies[k].block);
    copies[k].block = NULL;
    copies[k].data = NULL;
    copies[k].run = copies[k].due = false;
  }
}

static void free_copies(ParadTaskRecord *r) {
  drop_copies(r->copies, r->nroots);
  free(r->copies);
  r->copies = NULL;
}

/* The plan's copy fields of object k for copy c, whose reads lie in [lo, lo + len). */
static void plan_copy(unsigned long long *plan, const Copy *c, unsigned long long lo, unsigned long long len) {
  plan[COPY_LO] = lo;
  plan[COPY_LEN] = len;
  plan[COPY_DELTA] = (unsigned long long)(uintptr_t)c->data - c->lo;
}

static const char aliased_input[] =
    "a parallel region wrote, through one pointer, memory that it read through another (an input of the region, "
    "as far as the compiler could see): reverse mode reads what a region's thread read of its inputs from a copy "
    "made as the thread leaves the region; run with PARAD_REGION_COPIES=0 to record every read instead";

/* A region's thread copies the inputs it read unless PARAD_REGION_COPIES=0. */
static bool region_copies_on(void) {
  static int on = -1; /* -1: not read yet */
  int v = __atomic_load_n(&on, __ATOMIC_RELAXED);
  if (v < 0) {
    const char *e = getenv("PARAD_REGION_COPIES");
    v = !(e && strcmp(e, "0") == 0);
    __atomic_store_n(&on, v, __ATOMIC_RELAXED);
  }
  return v;
}

/* The calling thread's copy of object k of nroots, the region's copies made where there were none. */
static Copy *own_copy(ParadRegion *r, int k, int nroots) {
  quick_lock(&r->mu);
  if (!r->copies) {
    r->ncopies = nroots;
    r->copies = xcalloc((size_t)r->nthreads * (size_t)nroots, sizeof *r->copies);
  }
  pthread_mutex_unlock(&r->mu);
  if (r->ncopies != nroots) fatal("a parallel region's threads ran different functions");
  return &thread_copies(r, omp_get_thread_num())[k];
}

/* A region's thread, where object k of nroots is computed: the whole address space is its input (every
 * read of k in a loop is taken from the copy of what the thread read of it), unless copies are off. */
static void region_input(ParadRegion *r, int k, int nroots, unsigned long long *out) {
  if (!region_copies_on()) return;
  own_copy(r, k, nroots)->wanted = true;
  out[0] = 0, out[1] = ~0ull;
}

/* As a region's thread returns, with its notes: what it read of each input, copied. */
static void region_copy_inputs(ParadRegion *r, int id, const unsigned long long *ranges, int nroots) {
  Copy *c = thread_copies(r, id);
  for (int k = 0; c && k < nroots; k++) {
    unsigned long long lo = ranges[RANGE_FIELDS * k + READ_LO], hi = ranges[RANGE_FIELDS * k + READ_HI];
    if (!c[k].wanted || lo >= hi) continue;
    if (wrote_in(ranges, nroots, lo, hi)) fatal(aliased_input);
    copy_range(&c[k], lo, hi, r, COPY_INPUT, id, k);
  }
}

/* As a region's thread's reverse sweep starts: its copies, which no other thread wrote into either (one
 * made as a run started holds what the run read, whatever other threads wrote before it started). */
static void region_plan_copies(ParadRegion *r, int id, unsigned long long *own) {
  Copy *c = thread_copies(r, id);
  for (int k = 0; c && k < r->nroots; k++) {
    if (c[k].due) fatal("internal error: a parallel region's loop ended without copying what it wrote");
    if (!c[k].data) continue;
    for (int other = 0; other < r->nthreads && !c[k].run; other++)
      if (other != id && wrote_in(&r->ranges[(size_t)other * RANGE_FIELDS * r->nroots], r->nroots, c[k].lo, c[k].lo + c[k].len))
        fatal(aliased_input);
    plan_copy(&own[PLAN_FIELDS * k], &c[k], c[k].lo, c[k].len);
  }
}

/* Copies of runs are made from this size: a shorter run records its reads at about the cost of the call. */
enum { RUN_COPY_LEAST = 256 };

/* The region the calling thread records for (not a task of it), if any. */
static ParadRegion *recording_region(void) {
  ParadTape *t = __parad_rt_current;
  return t && !t->task ? t->region : NULL;
}

/* Forward sweep, as a run of a region's loop starts that reads object k of nroots element by element over
 * [lo, hi), none of whose stores may write there (reverse/rev_shared.c, "streamed inputs"): whether the
 * thread copied it, reading it back in the reverse sweep, instead of recording its reads. One run per
 * object and call: a thread's next runs record theirs (a dynamic schedule's chunks). first: nothing in
 * the function before the run writes shared memory or synchronises (see "copies trusted"). */
int __parad_rt_run_copy(int k, int nroots, unsigned long long lo, unsigned long long hi, int first) {
  ParadRegion *r = recording_region();
  if (!r || k < 0 || k >= nroots || hi - lo < RUN_COPY_LEAST || !region_copies_on()) return 0;
  Copy *c = own_copy(r, k, nroots);
  if (c->block) return 0;
  copy_range(c, lo, hi, r, first ? COPY_RUN_FIRST : COPY_RUN, omp_get_thread_num(), k);
  c->run = true;
  return 1;
}

/* Forward sweep, as a region's loop is about to run that writes object k of nroots element by element over
 * [lo, hi) (reverse/rev_shared.c, "streamed outputs"), where apart says that none of its other stores may
 * write there: whether the thread will copy the range as the loop ends (__parad_rt_output_copy_made), the
 * reverse sweep reading the stored values there instead of records. */
int __parad_rt_output_copy(int k, int nroots, unsigned long long lo, unsigned long long hi, int apart) {
  ParadRegion *r = recording_region();
  if (!apart || !r || k < 0 || k >= nroots || hi - lo < RUN_COPY_LEAST || !region_copies_on()) return 0;
  Copy *c = own_copy(r, k, nroots);
  if (c->block || c->due) return 0;
  c->lo = lo, c->len = hi - lo, c->due = true;
  return 1;
}

void __parad_rt_output_copy_made(int k, int nroots) {
  ParadRegion *r = recording_region();
  if (!r || k < 0 || k >= nroots || !r->copies) return;
  Copy *c = &thread_copies(r, omp_get_thread_num())[k];
  if (!c->due) return;
  c->due = false;
  copy_range(c, c->lo, c->lo + c->len, r, COPY_OUTPUT, omp_get_thread_num(), k);
  c->run = true;
}

/* Forward sweep, where object k of nroots (at p) is computed: the input [out[0], out[0] + out[1]) around
 * p, whose reads in loops the function does not record (0, 0: none, all are recorded). A task's is one
 * of its input dependences; one that an output or inout dependence of the same task overlaps is none.
 * For an output (__parad_rt_shared_output: an object the task writes, whose reads in loops read what it
 * holds as the task ends), one of its output or inout dependences. */
static void shared_copy(int k, int nroots, const void *p, unsigned long long *out, bool output) {
  ParadTape *t = __parad_rt_current;
  ParadTaskRecord *r = t ? t->task : NULL;
  out[0] = out[1] = 0;
  if (t && !r && t->region && !output && k >= 0 && k < nroots) region_input(t->region, k, nroots, out);
  if (!r || !r->kinds || k < 0 || k >= nroots) return;
  intptr_t a = (intptr_t)p;
  for (int d = 0; d < r->ndeps; d++) {
    intptr_t lo = r->deps[d].base;
    size_t len = r->deps[d].len;
    if ((output ? r->kinds[d] == 1 : r->kinds[d] != 1) || a < lo || (size_t)(a - lo) >= len || len > COPY_LIMIT) continue;
    bool written = false;
    for (int e = 0; e < r->ndeps && !written && !output; e++)
      written = r->kinds[e] != 1 && r->deps[e].base < lo + (intptr_t)len && lo < r->deps[e].base + (intptr_t)r->deps[e].len;
    if (written) continue;
    if (!r->input_of) {
      r->input_of = xcalloc((size_t)nroots, sizeof *r->input_of);
      r->nroots = nroots;
    }
    r->input_of[k] = output ? -(d + 1) : d + 1;
    out[0] = (unsigned long long)lo, out[1] = len;
    return;
  }
}

void __parad_rt_shared_input(int k, int nroots, const void *p, unsigned long long *out) { shared_copy(k, nroots, p, out, false); }
void __parad_rt_shared_output(int k, int nroots, const void *p, unsigned long long *out) { shared_copy(k, nroots, p, out, true); }

/* The dependence object k's reads in loops were tested against (input_of: 1 + its index, negative for an
 * output). */
static const struct ParadDepend *copied_dependence(const ParadTaskRecord *r, int k) {
  return &r->deps[abs(r->input_of[k]) - 1];
}

/* As the function returns: the part of each input its object's reads covered, copied. */
static void copy_inputs(ParadTaskRecord *r) {
  if (!r->input_of) return;
  r->copies = xcalloc((size_t)r->nroots, sizeof *r->copies);
  for (int k = 0; k < r->nroots; k++) {
    if (!r->input_of[k]) continue;
    const struct ParadDepend *d = copied_dependence(r, k);
    const unsigned long long *f = &r->ranges[RANGE_FIELDS * k];
    unsigned long long dlo = (unsigned long long)d->base, dhi = dlo + d->len;
    unsigned long long lo = f[READ_LO] > dlo ? f[READ_LO] : dlo, hi = f[READ_HI] < dhi ? f[READ_HI] : dhi;
    if (lo >= hi) continue; /* nothing read there */
    if (r->input_of[k] > 0 && wrote_in(r->ranges, r->nroots, lo, hi))
      fatal("an OpenMP task wrote memory that it names in depend(in: ...) and reads: reverse mode reads what a "
            "task read of its inputs from a copy made as the task ends, and needs the task to only read them "
            "(name the memory in depend(inout: ...) instead)");
    if (r->input_of[k] < 0 && wrote_in_but(r->ranges, r->nroots, lo, hi, k))
      fatal("an OpenMP task wrote, through one pointer, memory of its depend(inout: ...) that it reads through "
            "another: reverse mode reads the values such a task reads of what it writes from a copy made as the "
            "task ends, and needs them written through the pointer they are read through");
    copy_range(&r->copies[k], lo, hi, NULL, COPY_TASK, -1, k);
  }
}

/* Forward sweep, as the task's function returns: rev_shared.c's notes, kept in its record. */
static void task_note(ParadTape *t, int nroots, const unsigned long long *ranges, int nsums, const unsigned char *may_sum,
                      const unsigned char *adds) {
  ParadTaskRecord *r = t->task;
  if (r->input_of && r->nroots != nroots) fatal("an OpenMP task's function noted different objects");
  free(r->ranges);
  free(r->may_sum);
  free(r->priv);
  free(r->adds);
  free_copies(r);
  r->nroots = nroots, r->nsums = nsums;
  r->adds = xcalloc((size_t)nroots, 1);
  memcpy(r->adds, adds, (size_t)nroots);
  r->ranges = xcalloc(RANGE_FIELDS * (size_t)nroots, sizeof *r->ranges);
  r->may_sum = xcalloc((size_t)nsums, 1);
  r->priv = xcalloc((size_t)nroots, sizeof *r->priv);
  memcpy(r->ranges, ranges, RANGE_FIELDS * (size_t)nroots * sizeof *ranges);
  memcpy(r->may_sum, may_sum, (size_t)nsums);
  copy_inputs(r);
}

static Private *task_private(ParadTape *t, int *nroots) {
  *nroots = t->task->nroots;
  return t->task->priv;
}

/* A task's private buffers are kept up to this size per object: a task reads a tile, a chunk of rows; one
 * that read a few floats far apart would pay for the whole range. */
enum { TASK_PRIVATE_LIMIT = 4 << 20 };

/* The largest part of [lo, hi) that one of the task's dependences covers, in *olo, *ohi (false when none
 * does): among its output and inout dependences (what it wrote there is its own), or (held) among those its
 * adjoint holds (readers' adjoints, one at a time). */
static bool largest_part(const ParadTaskRecord *r, unsigned long long lo, unsigned long long hi, bool held,
                         unsigned long long *olo, unsigned long long *ohi) {
  *olo = *ohi = 0;
  for (int d = 0; d < r->ndeps; d++) {
    bool counts = held ? r->held && r->held[d] : r->kinds && (r->kinds[d] == 2 || r->kinds[d] == 3);
    unsigned long long dlo = (unsigned long long)r->deps[d].base, dhi = dlo + r->deps[d].len;
    unsigned long long a = lo > dlo ? lo : dlo, b = hi < dhi ? hi : dhi;
    if (counts && a < b && b - a > *ohi - *olo) *olo = a, *ohi = b;
  }
  return *olo < *ohi;
}

/* An adjoint task's held dependences (readers' adjoints, one at a time): the part of what it read and
 * wrote, [rlo, rhi) and [wlo, whi), that the largest covers, in *olo, *ohi. Every other adjoint that adds
 * there is ordered with it or excluded by it. */
static bool held(ParadTaskRecord *r, unsigned long long rlo, unsigned long long rhi, unsigned long long wlo,
                 unsigned long long whi, unsigned long long *olo, unsigned long long *ohi) {
  unsigned long long lo = rlo < rhi ? rlo : wlo, hi = rlo < rhi ? rhi : whi;
  if (wlo < whi) lo = wlo < lo ? wlo : lo, hi = whi > hi ? whi : hi;
  return largest_part(r, lo, hi, true, olo, ohi);
}

/* Reverse sweep, as the task's reverse function starts (see __parad_rt_shared_plan). Where several threads
 * run tasks, the span from the first to the last address a task wrote of an output (or inout) dependence
 * is its own: no other task may touch it while the task's adjoint runs (the adjoint tasks of the
 * dependence's other users wait for it or it for them, and a task that read what it wrote without naming
 * it would have raced with the write), so adjoints go there plainly. (Assumed, not checked: that a task
 * the dependences do not order with it reads no address inside that span that it left unwritten.) What
 * it only read gets a private buffer, where it wrote nothing, added into the shadow
 * (atomically) at the task's end or as it leaves a critical section: a tile read throughout a tiled
 * factorisation's update costs an atomic add per float once per task, instead of one per multiply-add.
 * Everything else is added atomically. A team of one thread owns every address. */
static void task_plan(ParadTape *t, int nroots, unsigned long long *own, int nsums, unsigned char *may_sum, const unsigned char *elem) {
  ParadTaskRecord *r = t->task;
  bool team = !__parad_rt_team_alone();
  memset(own, 0, PLAN_FIELDS * (size_t)nroots * sizeof *own);
  for (int k = 0; k < nroots; k++) {
    own[PLAN_FIELDS * k + OWN_HI] = team ? 0 : ~0ull;
    own[PLAN_FIELDS * k + OWN_SHADOW_LO] = team ? ~0ull : 0;
    own[PLAN_FIELDS * k + OWN_WHOLE] = !team;
  }
  if (!r->ranges || r->nroots != nroots || r->nsums != nsums) {
    memset(may_sum, 0, (size_t)nsums);
    return;
  }
  free_private(r->priv, nroots);
  for (int k = 0; k < nroots && r->input_of; k++) {
    Copy *c = r->copies ? &r->copies[k] : NULL;
    if (!r->input_of[k] || !c || !c->data) continue;
    const struct ParadDepend *d = copied_dependence(r, k);
    plan_copy(&own[PLAN_FIELDS * k], c, (unsigned long long)d->base, d->len);
  }
  for (int k = 0; k < nroots && team; k++) {
    const unsigned long long *f = &r->ranges[RANGE_FIELDS * k];
    unsigned long long rlo = f[READ_LO], rhi = f[READ_HI], delta = f[SHADOW_DELTA], *plan = &own[PLAN_FIELDS * k], lo, hi;
    if (held(r, rlo, rhi, f[WRITTEN_LO], f[WRITTEN_HI], &lo, &hi) ||
        largest_part(r, f[WRITTEN_LO], f[WRITTEN_HI], false, &lo, &hi)) {
      plan[OWN_LO] = lo, plan[OWN_HI] = hi, plan[OWN_SHADOW_LO] = delta ? lo + delta : ~0ull;
      plan[OWN_WHOLE] = rlo < rhi && lo <= rlo && rhi <= hi; /* no test per address: all it read is its own */
      continue;
    }
    if (elem[k] && delta && rlo < rhi && rhi - rlo <= TASK_PRIVATE_LIMIT && !wrote_in(r->ranges, nroots, rlo, rhi))
      keep_private(&r->priv[k], plan, rlo, rhi, 0, 0, delta, elem[k]);
  }
  memcpy(may_sum, r->may_sum, (size_t)nsums);
}

/* The shadow block and the record go once neither the creating code's reverse sweep (at the adjoint of
 * the task's allocation, after it has read back the adjoints of what it copied into the block) nor the
 * task's adjoint task needs them. */
void __parad_rt_task_record_release(void *record) {
  ParadTaskRecord *r = record;
  if (__atomic_sub_fetch(&r->refs, 1, __ATOMIC_ACQ_REL)) return;
  free(r->deps);
  free(r->chunks);
  free(r->ranges);
  free(r->may_sum);
  free(r->priv);
  free(r->adds);
  free(r->held);
  free_copies(r);
  free(r->kinds);
  free(r->input_of);
  if (!r->chunk) __parad_rt_task_shadow_free(r->shadow);
  free(r);
}

/* libomp's copy of a task loop's block for a chunk (omp_reverse.c's copy function): a record of the
 * chunk's own, noted in the loop's. Chunks may be made by several threads at once. */
void *__parad_rt_task_record_chunk(void *loop) {
  ParadTaskRecord *l = loop;
  if (l->chunk) { /* copied from a copy: that one is a pattern of a recursive split, the chunk the loop's */
    __atomic_store_n(&l->pattern, true, __ATOMIC_RELAXED);
    l = l->loop;
  }
  ParadTaskRecord *c = __parad_rt_task_record(l->shadow);
  c->chunk = true;
  c->loop = l;
  c->region = l->region; /* a chunk has no dependences: its adjoint adds where nothing orders it */
  while (__atomic_test_and_set(&l->chunks_lock, __ATOMIC_ACQUIRE)) sched_yield();
  if (l->nchunks == l->capchunks) {
    l->capchunks = l->capchunks ? 2 * l->capchunks : 16;
    l->chunks = realloc(l->chunks, l->capchunks * sizeof *l->chunks);
    if (!l->chunks) {
      fprintf(stderr, "parad: out of memory for the records of a task loop\n");
      abort();
    }
  }
  l->chunks[l->nchunks++] = c;
  __atomic_clear(&l->chunks_lock, __ATOMIC_RELEASE);
  return c;
}

/* The adjoint of a task loop: its chunks' reverse sweeps, one after the other on this thread (they add
 * into the loop's shadow block, which the creating code reads next), or as tasks, waited for. */
void __parad_rt_taskloop_reverse(void *loop, void (*reverse)(void)) {
  ParadTaskRecord *l = loop;
  for (size_t i = l->nchunks; i-- > 0;) {
    if (__atomic_load_n(&l->chunks[i]->pattern, __ATOMIC_RELAXED)) { /* never ran: nothing to reverse */
      __parad_rt_task_record_release(l->chunks[i]);
      continue;
    }
    __parad_rt_task_resume(l->chunks[i]);
    reverse();
    __parad_rt_task_end(l->chunks[i]);
    __parad_rt_task_record_release(l->chunks[i]);
  }
  l->nchunks = 0;
}

/* The chunks' records: the adjoint tasks' own (the loop's creating code never sees them). */
void __parad_rt_taskloop_spawn_adjoints(void *loc, void *loop, int (*entry)(int, void *)) {
  ParadTaskRecord *l = loop;
  for (size_t i = l->nchunks; i-- > 0;) {
    if (!__atomic_load_n(&l->chunks[i]->pattern, __ATOMIC_RELAXED)) __parad_rt_task_spawn_adjoint(loc, l->chunks[i], entry);
    __parad_rt_task_record_release(l->chunks[i]);
  }
  l->nchunks = 0;
  __parad_rt_task_wait_adjoints(loc); /* the loop's own wait, and the chunks share its shadow block */
}

/* At the spawn, in the forward sweep: the dependences, for the task's inputs (task_input) and its adjoint
 * task. */
void __parad_rt_task_note_deps(void *record, int ndeps, const void *deps, int quiet) {
  ParadTaskRecord *r = record;
  ParadRegion *region = r->region;
  if (region) {
    void *creator = __parad_rt_current, *none = NULL;
    __atomic_compare_exchange_n(&region->creator, &none, creator, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    r->quiet = quiet && __atomic_load_n(&region->creator, __ATOMIC_ACQUIRE) == creator;
  }
  if (ndeps <= 0) return;
  r->deps = malloc(sizeof *r->deps * (size_t)ndeps);
  r->kinds = malloc((size_t)ndeps);
  if (!r->deps || !r->kinds) {
    fprintf(stderr, "parad: out of memory for an OpenMP task's dependences\n");
    abort();
  }
  memcpy(r->deps, deps, sizeof *r->deps * (size_t)ndeps);
  for (int i = 0; i < ndeps; i++) r->kinds[i] = r->deps[i].flags;
  r->ndeps = ndeps;
}

/* The dependences of the adjoint task, the task's turned round. What a task read, its adjoint adds into,
 * as every other reader's adjoint does: those adjoints run at once among themselves (`inoutset`: they add
 * atomically or through private buffers) but after the adjoint of whatever wrote it later and before the
 * adjoint of whatever wrote it earlier (both `inout`: they read and clear its adjoint); `out` (which clang
 * never emits: it says `inout`) becomes `in`. */
static void turn_round(ParadTaskRecord *r) {
  if (r->region) decide_held(r->region);
  free(r->held);
  r->held = xcalloc((size_t)r->ndeps, 1);
  for (int i = 0; i < r->ndeps; i++) {
    unsigned long long lo = (unsigned long long)r->deps[i].base;
    r->held[i] = held_range(r->region, lo, lo + r->deps[i].len);
  }
  for (int i = 0; i < r->ndeps; i++) {
    unsigned char f = r->kinds[i];
    if (f != 1 && f != 2 && f != 3) {
      fprintf(stderr, "parad: reverse mode cannot turn round this OpenMP dependence (kind %d: mutexinoutset or "
                      "inoutset)\n", f);
      abort();
    }
    r->deps[i].flags = f == 1 ? (r->held[i] ? 4 /* mutexinoutset */ : 8 /* inoutset */) : f == 2 ? 1 : 3;
  }
}

/* The adjoint of a spawn: the task's reverse sweep as a task (entry: the generated function that resumes
 * the record's tape, runs the reverse function and releases the record), with the dependences turned
 * round. */
void __parad_rt_task_spawn_adjoint(void *loc, void *record, int (*entry)(int, void *)) {
  ParadTaskRecord *r = record;
  int gtid = __kmpc_global_thread_num(loc);
  __atomic_add_fetch(&r->refs, 1, __ATOMIC_RELAXED); /* the adjoint task's, released at its end */
  char *task = __kmpc_omp_task_alloc(loc, gtid, 1 /* tied */, TASK_HEADER + sizeof(void *), 0, entry);
  *(void **)(task + TASK_HEADER) = record;
  turn_round(r);
  if (r->ndeps) __kmpc_omp_task_with_deps(loc, gtid, task, r->ndeps, r->deps, 0, NULL);
  else __kmpc_omp_task(loc, gtid, task);
}

void *__parad_rt_task_adjoint_record(void *task) { return *(void **)((char *)task + TASK_HEADER); }

/* The end of a reverse sweep that spawned adjoint tasks: they are done before it returns. */
void __parad_rt_task_wait_adjoints(void *loc) { __kmpc_omp_taskwait(loc, __kmpc_global_thread_num(loc)); }
