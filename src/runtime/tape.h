/* The tape of reverse mode: what the augmented forward sweep records for the reverse sweep, read back
 * last-in first-out.
 *
 * A tape is a chain of chunks. Generated code writes and reads whole records (the values one block
 * execution saves) directly, through the first two fields of ParadTape; it calls the runtime only when a
 * chunk is full (grow) or, reading back, empty (back). A record never spans two chunks.
 *
 * Each thread has its own current tape (__parad_rt_current), so that no lock is ever taken: a gradient
 * call makes a new tape current for its duration, and split mode hands the tape to the user between the
 * two sweeps. Parallel regions (later) will give each thread of a team a tape of its own under the
 * tape of the enclosing region. */
#ifndef PARAD_RUNTIME_TAPE_H
#define PARAD_RUNTIME_TAPE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ParadChunk ParadChunk;
typedef struct ParadRegion ParadRegion;

typedef struct ParadTape {
  char *top;              /* next free byte of the current chunk: generated code reads and writes it */
  char *end;              /* end of the current chunk: generated code reads it */
  char *base;             /* start of the current chunk's data */
  ParadChunk *chunk;      /* the current chunk */
  struct ParadTape *prev; /* the tape that was current before this one */
  size_t bytes;           /* chunk memory held now */
  size_t used_before;     /* bytes recorded in the chunks before the current one */
  size_t peak;            /* the most bytes recorded at once */
  void **later;           /* shadows of heap blocks freed in the forward sweep: freed when the tape ends */
  size_t nlater, caplater;
  struct ParadMove *moves; /* shadows of blocks realloc moved, for the reverse sweep */
  size_t nmoves, capmoves;
  struct ParadRegion *region;   /* the parallel region this tape is one thread's part of, or NULL */
  int region_thread;            /* that thread's number */
  struct ParadRegion **regions; /* the parallel regions run while this tape was current: freed with it */
  size_t nregions, capregions;
  struct ParadRegion *last_region; /* the region forked last while this tape was current, if it noted its
                                      writes (omp.c, "copies trusted"); NULL after one that did not */
  const void *chain_to;          /* the function a caller calls quietly since last_region (omp.c) */
  long *tickets;                /* critical sections this thread is in (omp.c) */
  size_t ntickets, captickets;
  struct ParadTaskRecord *task; /* the OpenMP task whose tape this is (omp.c), or NULL */
  struct ParadAction *actions;  /* what the program released that the reverse sweep still uses: when the tape ends */
  size_t nactions, capactions;
  unsigned long split_seq;      /* its augmented forward call's number, in the order of those calls (split_globals.c) */
  int split_open;               /* an augmented forward call's tape, counted open until reversed or dropped (split_globals.c) */
  const void **split_shadows;   /* the shadows its augmented forward call was given (split_globals.c) */
  unsigned nsplit_shadows;
  struct ParadFreedCopies *freed_copies; /* the caller's blocks the program copied and freed (freed_copies.c) */
  bool first_counted; /* its first chunk counts against the budget (tape.c: only while a budget is set) */
} ParadTape;

extern _Thread_local ParadTape *__parad_rt_current;

/* Split mode's count of open gradients (split_globals.c): t's augmented forward call opened one, which
 * its reverse sweep or split forward mode's dropping it closes (once). */
void __parad_rt_split_augmented(ParadTape *t);
void __parad_rt_split_reversed(ParadTape *t);
/* The shadows of the pointer arguments an augmented forward call was given (n of them), kept with its tape;
 * its reverse call's, compared: the reverse sweep adds into the first ones, so the program stops where they
 * differ (message names the call). */
void __parad_rt_split_shadows(ParadTape *t, unsigned n, const void *const *shadows);
void __parad_rt_split_same_shadows(ParadTape *t, unsigned n, const void *const *shadows, const char *message);

/* The adjoints a realloc's old shadow holds after the reverse sweep, into the new shadow (memory.c). */
void __parad_rt_moves_hand_back(ParadTape *t);

/* The caller's blocks the program copied and then freed (freed_copies.c): shadows allocated while the
 * current tape is, the program's frees of shadows, the reverse sweep's copies; as t ends, after its
 * reverse sweep, the adjoints the freed blocks hold go the way their contents went; and t's records freed. */
void __parad_rt_shadow_born(void *shadow);
/* Whether the shadow was allocated while t was current; whether by a region run while t was current, or
 * by one nested in it, down `depth` levels (omp.c). */
int __parad_rt_shadow_born_on(ParadTape *t, const void *shadow);
int __parad_rt_regions_born(ParadTape *t, const void *shadow, int depth);
void __parad_rt_program_freed(ParadTape *t, void *shadow, int float_width);
enum { COPY_F64, COPY_F32, COPY_FIELDS };
void __parad_rt_note_copy(char *d, char *s, size_t bytes, int kind, size_t period, size_t phase, const unsigned *runs,
                          unsigned nruns);
void __parad_rt_freed_copies_hand_back(ParadTape *t);
void __parad_rt_freed_copies_free(ParadTape *t);

/* The tape budget (tape_budget.c): chunk bytes taken by a tape (stopping the program, with the figures,
 * over the budget) and given back. */
void __parad_rt_tape_budget_take(size_t bytes);
void __parad_rt_tape_budget_give(size_t bytes);
/* The size of a tape's first chunk: small under a budget (tape.c). */
size_t __parad_rt_tape_first_chunk(void);
/* The budget (0: none) and what the tapes and snapshots hold now. */
size_t __parad_rt_tape_budget_limit(void);
/* Watching the most the tapes held from now on (returns what they hold now), and that most since then. */
size_t __parad_rt_tape_budget_watch(void);
size_t __parad_rt_tape_budget_watched(size_t since);
size_t __parad_rt_tape_budget_held(void);
/* checkpoint.c: where a checkpointed loop's forward sweep runs a step on this thread, some of its
 * snapshots go to make room under the budget; whether any went */
int __parad_rt_ckpt_relieve(void);
/* The bytes of snapshots a checkpointed loop holds now besides the thread's tapes (checkpoint.c): they
 * count in parad_tape_peak_bytes. */
void __parad_rt_tape_note_extra(size_t bytes);

/* A new empty tape, made current (the previous one is remembered). */
ParadTape *__parad_rt_tape_begin(void);
/* At the end of a forward sweep (the tape is at its fullest): notes its size for parad_tape_peak_bytes. */
void __parad_rt_tape_mark_peak(ParadTape *t);
/* After an augmented forward sweep in split mode: the previous tape is current again; t stays alive. */
void __parad_rt_tape_suspend(ParadTape *t);
/* Before the reverse sweep of split mode: t is current again. */
void __parad_rt_tape_resume(ParadTape *t);
/* After the reverse sweep: the previous tape is current again, and t is freed. */
void __parad_rt_tape_end(ParadTape *t);
/* A tape whose reverse sweep will never run (not current): freed with all it holds. */
void __parad_rt_tape_discard(ParadTape *t);
/* The same, its chunks kept for the thread's next tapes (a checkpointed loop drops a tape per step). */
void __parad_rt_tape_recycle(ParadTape *t);

/* Scratch memory of at least size bytes from the thread's pool of tape chunks (NULL when out of memory),
 * and back into the pool: a parallel region's private adjoint buffers, made in every reverse sweep of
 * the region, would otherwise map and fault in fresh pages every time. */
void *__parad_rt_scratch_take(size_t size);
void __parad_rt_scratch_give(void *data);
/* calloc for the shadow of a heap block (or of a stack slot the reverse sweep outlives), from the thread's
 * pool where a big enough block was given back; and giving one back when no sweep needs it any more. The
 * blocks are malloc's: a shadow that escapes to the program may be freed with free. */
void *__parad_rt_shadow_alloc(size_t count, size_t size);
/* The shadow of a block C++'s aligned new made: zeroed, with the block's alignment (not pooled). */
void *__parad_rt_shadow_alloc_aligned(size_t size, size_t align);
void __parad_rt_shadow_give(void *shadow);
/* The shadow of a block C++'s new made, from the same family's allocator `alloc` (operator new or new[]),
 * zeroed: a shadow that escapes to the program is freed with its delete (not pooled). */
void *__parad_rt_shadow_new(void *(*alloc)(size_t), size_t bytes);
void *__parad_rt_shadow_alloca(size_t bytes, size_t align);
void __parad_rt_ckpt_track(void *p, void (*release)(void *)); /* checkpoint.c */

/* Slow paths of generated code: room for a record of n bytes in a new chunk; the previous chunk when the
 * current one has been read back entirely. Both return the new top. */
char *__parad_rt_tape_grow(ParadTape *t, size_t n);
char *__parad_rt_tape_back(ParadTape *t);

/* Forward mode over a reverse-mode derivative (a Hessian-vector product): each tape has a tangent twin,
 * current in __parad_rt_current_tangent while the tape is current, holding the tangents of what the tape
 * holds at the same offsets. Its chunks have exactly the sizes of the tape's, so that the generated
 * code's tests of the tape's top against its end, which the tangent code shares, hold for both. */
extern _Thread_local ParadTape *__parad_rt_current_tangent;
/* The twin of t (just begun), made current. */
ParadTape *__parad_rt_twin_begin(ParadTape *t);
/* After __parad_rt_tape_grow(t, n): the twin moves to a chunk of the size of t's new one; its top. */
char *__parad_rt_twin_grow(ParadTape *twin, ParadTape *t);
/* After __parad_rt_tape_end: the current twin (the ended tape's) is freed, the previous one current again. */
void __parad_rt_twin_end(void);

/* Memory in reverse mode (memory.c). */
void __parad_rt_free_later(void *shadow);
void __parad_rt_free_later_floats(void *shadow, int float_width); /* a block of floats only */
/* The same for a block C++'s delete freed: its shadow goes with `release`, the plain delete of the block's
 * family (the caller's shadow was made with it, the derivative's too: __parad_rt_shadow_new); float_width:
 * as above, 0 for a block not of floats only. */
void __parad_rt_delete_later(void *shadow, int float_width, void (*release)(void *));
/* The same on tape t (a checkpointed loop's shadows go with the tape its loop was run on). */
void __parad_rt_free_later_on(ParadTape *t, void *shadow);
/* release(handle) when the current tape ends, after its reverse sweep (the last registered first): a handle
 * the program released in the forward sweep that the reverse sweep still uses (an MPI communicator). */
void __parad_rt_release_later(void (*release)(void *), void *handle);
/* The same on tape t (a checkpointed loop's shadow of a block C++'s new made). */
void __parad_rt_release_later_on(ParadTape *t, void (*release)(void *), void *handle);
/* The releases registered on t, now (as t ends). */
void __parad_rt_release_now(ParadTape *t);
/* moves: 0 floats, 1 pointers, 2 bytes of a kind not told (memory.c); float_bytes: 8, 4, or 1 for bytes */
void *__parad_rt_realloc_shadow(void *old, void *old_shadow, size_t size, int moves);
void __parad_rt_realloc_shadow_reverse(void *shadow, int float_bytes);
void __parad_rt_realloc_pointers(char *shadow, size_t period, size_t phase, const unsigned *runs, unsigned nruns);
void __parad_rt_realloc_adjoints(char *shadow, size_t period, size_t phase, const unsigned *runs, unsigned nruns);
void __parad_rt_copy_adjoint_f64(double *dst_adjoint, double *src_adjoint, size_t bytes);
void __parad_rt_copy_adjoint_f80(long double *dst_adjoint, long double *src_adjoint, size_t bytes);
/* The same without noting the copy for freed_copies.c (the runtime's own moves of adjoints). */
void __parad_rt_move_adjoint_f64(double *dst_adjoint, double *src_adjoint, size_t bytes);
void __parad_rt_move_adjoint_f32(float *dst_adjoint, float *src_adjoint, size_t bytes);
void __parad_rt_move_adjoint_fields(char *dst_adjoint, char *src_adjoint, size_t bytes, size_t period, size_t phase,
                                    const unsigned *runs, unsigned nruns);
void __parad_rt_copy_adjoint_f32(float *dst_adjoint, float *src_adjoint, size_t bytes);
void __parad_rt_copy_adjoint_fields(char *dst_adjoint, char *src_adjoint, size_t bytes, size_t period, size_t phase,
                                    const unsigned *runs, unsigned nruns);
void __parad_rt_copy_adjoint_f64_atomic(double *dst_adjoint, double *src_adjoint, size_t bytes);
void __parad_rt_copy_adjoint_f32_atomic(float *dst_adjoint, float *src_adjoint, size_t bytes);
void __parad_rt_copy_adjoint_fields_atomic(char *dst_adjoint, char *src_adjoint, size_t bytes, size_t period,
                                           size_t phase, const unsigned *runs, unsigned nruns);
void __parad_rt_copy_shadow_pointers(char *dst_shadow, char *src_shadow, size_t bytes, size_t period, size_t phase,
                                     const unsigned *runs, unsigned nruns);

/* Bytes the runtime itself records and reads back, between the records of generated code (last in,
 * first out like them). */
void __parad_rt_tape_push(ParadTape *t, const void *data, size_t n);
void __parad_rt_tape_pop(ParadTape *t, void *data, size_t n);

/* Parallel regions (omp.c): freed with the tape that was current when they ran. Weak, so that a
 * program without OpenMP does not link omp.c (nor need libomp). */
void __parad_rt_region_free(struct ParadRegion *r) __attribute__((weak));

/* Enzyme's split mode with a user buffer: the size of the tape handle it stores there. */
int __parad_rt_tape_handle_size(void);

/* For benchmarks: the most bytes one thread's tapes held at once (at the end of a forward sweep) since
 * the last reset. A parallel region's threads record on tapes of their own, which this does not add up:
 * parad_tape_recorded_bytes() is the sum, over every tape of every thread, of what it held at the end of
 * its forward sweep, since the last reset (parad_tape_reset_peak resets both; call them between
 * gradients, not during one). */
size_t parad_tape_peak_bytes(void);
size_t parad_tape_recorded_bytes(void);
void parad_tape_reset_peak(void);

/* Adjoint updates of shared memory counted for benchmarks (update_counts.c). */
extern unsigned long long __parad_rt_plain_updates, __parad_rt_atomic_updates;

#endif
