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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tape.h"

typedef struct {
  const void *lock;
  long next;            /* forward sweep: the next ticket */
  long turn;            /* reverse sweep: the ticket whose turn it is */
} LockOrder;

struct ParadRegion {
  int nthreads;         /* the team of the forward sweep; 0 until a thread arrives */
  ParadTape **tapes;    /* one per thread number */
  pthread_mutex_t mu;   /* guards the table of locks and the first arrival */
  LockOrder *locks;
  size_t nlocks, caplocks;
  /* per thread: 4 per shared object (read lo, hi, written lo, hi), and one flag per summed address */
  int nroots, nsums;
  unsigned long long *ranges;
  unsigned char *may_sum;
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

ParadRegion *__parad_rt_region_begin(void) {
  ParadTape *t = __parad_rt_current;
  if (!t) fatal("a parallel region of differentiated code ran outside a differentiated call");
  ParadRegion *r = xcalloc(1, sizeof *r);
  pthread_mutex_init(&r->mu, NULL);
  if (t->nregions == t->capregions) {
    t->capregions = t->capregions ? 2 * t->capregions : 8;
    t->regions = realloc(t->regions, t->capregions * sizeof *t->regions);
    if (!t->regions) fatal("out of memory");
  }
  t->regions[t->nregions++] = r;
  return r;
}

/* Each thread of the forward team: a tape of its own, current until region_leave. */
void __parad_rt_region_enter(ParadRegion *r) {
  int n = omp_get_num_threads(), id = omp_get_thread_num();
  pthread_mutex_lock(&r->mu);
  if (!r->tapes) {
    r->nthreads = n;
    r->tapes = xcalloc((size_t)n, sizeof *r->tapes);
  }
  pthread_mutex_unlock(&r->mu);
  ParadTape *t = __parad_rt_tape_begin();
  t->region = r;
  r->tapes[id] = t;
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

void __parad_rt_region_finish(ParadRegion *r) {
  int id = omp_get_thread_num();
  ParadTape *t = r->tapes[id];
  r->tapes[id] = NULL;
  __parad_rt_tape_end(t);
}

void __parad_rt_region_free(ParadRegion *r) {
  for (int i = 0; r->tapes && i < r->nthreads; i++)
    if (r->tapes[i]) __parad_rt_tape_discard(r->tapes[i]); /* a forward sweep whose reverse never ran */
  free(r->tapes);
  free(r->locks);
  free(r->ranges);
  free(r->may_sum);
  pthread_mutex_destroy(&r->mu);
  free(r);
}

/* ---- critical sections ---- */

static LockOrder *order_of(ParadRegion *r, const void *lock) {
  pthread_mutex_lock(&r->mu);
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

/* Reverse sweep, at the end of a critical section: wait for this thread's turn. */
void __parad_rt_critical_reverse_enter(const void *lock) {
  ParadTape *t = __parad_rt_current;
  if (!t || !t->region) return;
  long ticket;
  __parad_rt_tape_pop(t, &ticket, sizeof ticket);
  LockOrder *o = order_of(t->region, lock);
  for (unsigned spins = 0; __atomic_load_n(&o->turn, __ATOMIC_ACQUIRE) != ticket; spins++)
    if (spins > 64) sched_yield();
  if (t->ntickets == t->captickets) {
    t->captickets = t->captickets ? 2 * t->captickets : 4;
    t->tickets = realloc(t->tickets, t->captickets * sizeof *t->tickets);
    if (!t->tickets) fatal("out of memory");
  }
  t->tickets[t->ntickets++] = ticket;
}

/* Reverse sweep, at the start of a critical section: the next ticket down may go. */
void __parad_rt_critical_reverse_exit(const void *lock) {
  ParadTape *t = __parad_rt_current;
  if (!t || !t->region) return;
  if (!t->ntickets) fatal("the reverse sweep left a critical section it never entered");
  long ticket = t->tickets[--t->ntickets];
  LockOrder *o = order_of(t->region, lock);
  __atomic_store_n(&o->turn, ticket - 1, __ATOMIC_RELEASE);
}

/* ---- counts for benchmarks (code compiled with PARAD_COUNT_UPDATES set) ---- */

unsigned long long __parad_rt_plain_updates, __parad_rt_atomic_updates;

void parad_adjoint_update_counts(unsigned long long *plain, unsigned long long *atomic) {
  *plain = __atomic_load_n(&__parad_rt_plain_updates, __ATOMIC_RELAXED);
  *atomic = __atomic_load_n(&__parad_rt_atomic_updates, __ATOMIC_RELAXED);
}

/* ---- which shared memory each thread touched (reverse/rev_shared.c) ---- */

/* Forward sweep, as the region's function returns: per shared object, the addresses this thread read
 * [lo, hi) and wrote, and per address read throughout, whether the thread never wrote it. */
void __parad_rt_region_note(int nroots, const unsigned long long *ranges, int nsums, const unsigned char *may_sum) {
  ParadTape *t = __parad_rt_current;
  if (!t || !t->region) return;
  ParadRegion *r = t->region;
  int id = omp_get_thread_num();
  pthread_mutex_lock(&r->mu);
  if (!r->ranges) {
    r->nroots = nroots;
    r->nsums = nsums;
    r->ranges = xcalloc((size_t)r->nthreads * 4 * (size_t)(nroots ? nroots : 1), sizeof *r->ranges);
    r->may_sum = xcalloc((size_t)r->nthreads * (size_t)(nsums ? nsums : 1), 1);
  }
  pthread_mutex_unlock(&r->mu);
  if (nroots != r->nroots || nsums != r->nsums) fatal("a parallel region's threads ran different functions");
  memcpy(&r->ranges[(size_t)id * 4 * nroots], ranges, 4 * (size_t)nroots * sizeof *ranges);
  memcpy(&r->may_sum[(size_t)id * nsums], may_sum, (size_t)nsums);
}

/* Reverse sweep, as the region's reverse function starts: per object, the part of this thread's reads no
 * other thread read (own[2k], own[2k+1]); where the forward sweep noted nothing, no part at all. */
void __parad_rt_region_plan(int nroots, unsigned long long *own, int nsums, unsigned char *may_sum) {
  ParadTape *t = __parad_rt_current;
  ParadRegion *r = t ? t->region : NULL;
  int id = omp_get_thread_num();
  if (!r || !r->ranges || r->nroots != nroots || r->nsums != nsums) {
    memset(own, 0, 2 * (size_t)nroots * sizeof *own);
    memset(may_sum, 0, (size_t)nsums);
    return;
  }
  for (int k = 0; k < nroots; k++) {
    unsigned long long lo = r->ranges[((size_t)id * nroots + k) * 4], hi = r->ranges[((size_t)id * nroots + k) * 4 + 1];
    for (int other = 0; other < r->nthreads && lo < hi; other++) {
      if (other == id) continue;
      for (int m = 0; m < nroots && lo < hi; m++) {
        unsigned long long c = r->ranges[((size_t)other * nroots + m) * 4], d = r->ranges[((size_t)other * nroots + m) * 4 + 1];
        if (c >= d || d <= lo || c >= hi) continue; /* empty, or apart */
        if (c <= lo) lo = d;
        else if (d >= hi) hi = c;
        else if (c - lo >= hi - d) hi = c; /* inside: keep the larger side */
        else lo = d;
      }
    }
    own[2 * k] = lo < hi ? lo : 0;
    own[2 * k + 1] = lo < hi ? hi : 0;
  }
  memcpy(may_sum, &r->may_sum[(size_t)id * nsums], (size_t)nsums);
}
