/* Adjoints of shared memory in a parallel region, without an atomic add for each.
 *
 * Each thread of a region reads shared arrays, and in the reverse sweep adds adjoints into their
 * shadows, where other threads add too: atomic adds, by default. Most of those additions go where no
 * other thread ever adds (the rows of a stencil a thread's iterations own), and some go again and again
 * to one place (a coefficient every iteration reads). For the function a region runs, when every shared
 * object it touches is reached directly from its parameters (nothing is passed on to calls, no pointer
 * comes from data), the forward sweep notes, per object, the range of addresses each thread read and
 * wrote (runtime/omp.c keeps them). Then, in the reverse sweep:
 *   - a thread adds plainly at an address no other thread read (the part of its own range that no
 *     other thread's range covers); elsewhere into its private buffer, where it has one for the object,
 *     else atomically;
 *   - a value the function reads at one address throughout, and the thread never writes, has its
 *     adjoint summed in a register and added (atomically) once, at the end and before each barrier.
 * An access in a loop whose trip count is known on entry, at an address linear in the loop's induction
 * variables, is noted once per run of the loop (its first and last iterations bound it), and decided once
 * per run of the loop's reverse: each read's run lies in the thread's own part, or apart from it in its
 * private buffer, or neither. Reads of one object are decided each on its own (a stencil's row above
 * the thread's first row is another thread's while the row itself is its own). Two flags per loop: all
 * of its reads the thread's own (most runs: the loop's reverse adds plainly into the shadows, as a team
 * of one does), or all of them decided (each read adds plainly at its own distance from its shadow, 0
 * or to the buffer, which the vectoriser handles less well); else each read is tested. */
#include <stdint.h>
#include <stdlib.h>

#include <llvm-c/Target.h>

#include "ad/body.h"
#include "ad/custom.h"
#include "ad/global_shadows.h"
#include "ad/indirect.h"
#include "analysis/dependence.h"
#include "analysis/memtype.h"
#include "omp/omp.h"
#include "reverse/rev_internal.h"

enum { MAX_ROOTS = 64, MAX_DEFERRED = 32, MAX_GATHERS = 8 /* as runtime/omp.c keeps */ };
enum { OWN_ACCESSES = -1, CALL_READS = -2 }; /* SharedMemory.field */

/* What the forward sweep notes per object (runtime/omp.c reads them in this order): the addresses read
 * and written, the distance from the object to its shadow (0 where unknown), and where the object's reads
 * are all in strided runs of one stride P, the bytes [lo, hi) of a period of P, counted from the object's
 * address (`origin`), that they fall in: P 0 before any run, all ones where there is no such P (a column
 * of a row-major matrix per thread: the threads' ranges overlap, their columns do not). */
enum { READ_LO, READ_HI, WRITTEN_LO, WRITTEN_HI, SHADOW_DELTA, READ_PERIOD, PHASE_LO, PHASE_HI, PHASE_ORIGIN, RANGE_FIELDS };
/* What the reverse sweep is told per object as it starts: the thread's own part, its private buffer, (a
 * task's) the input dependence its reads in loops were tested against and the distance to their copy,
 * whether the own part is everything the thread read, and the part the buffer never touches (the own part,
 * but for a chunk's own part, see "chunks"). */
enum { OWN_LO, OWN_HI, PRIVATE_BASE, PRIVATE_LEN, PRIVATE_BUFFER, OWN_SHADOW_LO, PRIVATE_LO, COPY_LO, COPY_LEN, COPY_DELTA,
       OWN_WHOLE, BUFFER_SKIP_LO, BUFFER_SKIP_HI, BUFFER_WHOLE, PLAN_FIELDS };

/* The accesses of a block at constant distances from one address (a particle's x, y and z), decided
 * one by one (not per run of a loop): the forward sweep widens the object's range by them once, and the
 * reverse sweep tests whether they are all the thread's own at once. */
struct Group {
  LLVMBasicBlockRef block;
  LLVMValueRef anchor; /* the address they are constant offsets from */
  unsigned slot;       /* RANGE_FIELDS * object + READ_LO or WRITTEN_LO */
  long long lo, hi;    /* the bytes [lo, hi) from anchor they cover */
  /* A gather through an index array (see "gathers" below): anchor = base + scale * index, index a load
   * of the array in a run of `loop`; aug: slots for the run of the array read so far, and the base. */
  LLVMValueRef index, base;
  long long scale;
  bool is_signed;
  Loop *loop;
  LLVMValueRef walk; /* what walks the index array, and by how many bytes an iteration (IndexedGather) */
  unsigned walk_size;
  LLVMValueRef run_lo, run_hi, base_at;
  /* 1 + its number among the function's gathers (at most MAX_GATHERS have one), 0 for none; rev: the
   * stretch of the index array whose gathers read only the thread's own part, and a slot holding whether
   * the current run of `loop` lies in it (see "a gather's clean stretch") */
  unsigned number;
  LLVMValueRef stretch_lo, stretch_len, clean;
};

/* A call given pointers into objects that the callee only reads (rev_redirect.c): its redirected
 * parameters, and per slot (one per parameter, in order) the object and the size of the floats read. */
struct CallReads {
  LLVMValueRef call;
  unsigned long long params;
  unsigned n;
  unsigned object[MAX_REDIRECTS];
  unsigned char elem[MAX_REDIRECTS];
  LLVMValueRef arg[MAX_REDIRECTS];   /* the argument a slot reads through */
  long long field[MAX_REDIRECTS];    /* RedirectSlot's */
};

/* A loop whose runs are joined (see "joined runs"). */
struct Joined {
  Loop *l;
  unsigned iv;          /* the counter its accesses step through */
  bool is_signed;       /* how the counter is widened to 64 bits in their addresses */
  ValueList bases;      /* the arrays they index: values the function computes once */
  LLVMValueRef lo, hi;  /* aug: the joined run's counters [lo, hi], widened (empty: lo > hi) */
  LLVMValueRef *base_at; /* aug: per base, a slot holding it once a run began */
};

struct SharedMemory {
  ValueList roots;    /* the shared objects: parameters, pointers read from them, globals */
  VEC(unsigned char) stage; /* per object: its stage (see "stages"); one object per stage it is accessed in */
  /* per object: OWN_ACCESSES (the function's own loads and stores), CALL_READS (what calls read through the
     root's pointer, rev_redirect.c: an object of its own, so that the function's reads of other types, a
     record's pointers, leave it a private buffer), or the offset in the root's memory of the pointer to the
     object a call reads through a record of pointers */
  VEC(long long) field;
  ValueMap root_of;   /* load, store or atomic -> 1 + its object's index */
  ValueList deferred; /* addresses read throughout, whose adjoints are summed in registers */
  VEC(LLVMTypeRef) deferred_type;
  LLVMValueRef *deferred_at; /* aug: per address, a slot holding it once its block ran (0 before) */
  ValueMap defer_of;  /* load -> 1 + its address's index */
  LLVMValueRef *ranges; /* aug: RANGE_FIELDS slots per object (scalars, so that they live in registers) */
  bool *aperiodic;      /* aug: per object, whether it is read outside runs (it has no READ_PERIOD) */
  LLVMValueRef index_out; /* aug: two words, where __parad_rt_index_span puts a gather's range */
  LLVMValueRef *lo, *hi, *span, *ok, *sums; /* rev: the thread's own part per object (and its length, 0
                                              when empty); per address, whether summing is allowed, and the sum */
  LLVMValueRef *whole; /* rev: per object, whether the own part is all the thread read (i1) */
  bool all_noted;      /* every write of memory other threads see is a noted one (all_writes_noted) */
  signed char keeps_pointers; /* the function stores no pointer where other threads see it (-1: not known yet) */
  signed char pointers_fixed; /* nor does any call it makes (-1: not known yet) */
  LLVMValueRef *buffered; /* rev: per object, whether its buffer holds all the thread read at whole floats (i1;
                             false where a read may lie between whole floats: see whole_floats) */
  bool *whole_floats;   /* per object, whether every read of it is aligned to its floats (its adjoints then lie
                           at whole floats from any address read) */
  LLVMValueRef *skip_lo, *skip_hi; /* rev: the part of the range the private buffer never touches (in a chunked
                                      function, the thread's own part, where a chunk's own part may differ) */
  /* Per object, the size of the floats its adjoints are where they may be kept apart per thread (4 or 8:
   * every read of it is of floats of one type), else 0; rev: the shadow address the thread's private
   * buffer mirrors from, its length and the buffer (0 when it has none). */
  unsigned char *elem;
  /* Per object, whether its adjoints are all added atomically: in a region, a global holding derivatives
   * and pointers (a heap block's, ad/global_blocks.h), whose shadow the plans here do not follow. Its
   * accesses are still noted, so that other objects' own parts leave out what other threads read through
   * it, and the rest of the region's objects are planned as they would be without it. A global array of
   * floats is planned as an array passed by pointer (its shadow global at a constant distance). */
  bool *atomic_only;
  unsigned char *adds; /* per object, whether the reverse sweep adds adjoints into (or clears) its shadow */
  LLVMValueRef *pbase, *plen, *priv;
  LLVMValueRef *slo; /* rev: the thread's own part's start in the shadow's addresses (all ones if unknown) */
  LLVMValueRef *plo; /* rev: the start of the range the private buffer mirrors, in the object's addresses */
  ValueMap loop_of;   /* access -> its loop, when noted and decided per run of the loop */
  ValueList per_run;  /* those accesses */
  ValueMap monotone;  /* those of them whose addresses are bounded by corners, not linear (rev_monotone.c) */
  ValueMap own_of;    /* rev: loop -> slot holding whether all of the run's reads are the thread's own */
  ValueMap flag_of;   /* rev: loop -> slot holding whether each of the run's reads is, as a whole, the
                         thread's own or in its buffer at whole floats (then plainly, with no test per read) */
  ValueMap delta_of;  /* rev: read (its window, if it has one) -> slot holding the distance from the shadow to
                         where its adjoints go plainly: 0, or into the private buffer */
  VEC(struct Group) groups;   /* by block */
  VEC(struct CallReads) calls;
  ValueMap call_of;   /* call -> 1 + its index in calls */
  ValueMap fills, copies_from; /* a memset or memcpy -> 1 + the object it writes, reads (see "bulk copies") */
  VEC(unsigned) filled;        /* the objects they write */
  VEC(struct Joined) joined;  /* aug: loops whose runs are joined */
  ValueMap group_of;  /* access -> 1 + its group's index */
  /* Inputs read from copies (see "inputs" below): per object, whether the function reads it from a copy;
   * aug: per such object a slot for the input around it (start, length: a task's dependence, everything
   * for a region's thread); rev: the input and the distance from it to the copy. The loads read from the
   * copy, and per load a slot holding whether it does (a task's: in the current run of its loop). */
  bool *input;
  bool *writes;   /* per object, whether the function writes it (a region's inputs are compared with them) */
  bool *streamed; /* (a region's) an object read in loops element by element, copied as each run starts */
  ValueMap run_word; /* aug: loop -> which of its streamed objects the run copied (a bit each) */
  Loop **out_loop;   /* (a region's) an object written element by element, copied as the loop ends: its loop */
  char *streamable;  /* per loop, streamable_loop's answer: 0 not asked, 1 no, 2 yes */
  ValueMap stored_by; /* such an object's stored value -> its store */
  bool *output; /* (a task's) an object it writes, whose loads in loops read what it holds as the task ends */
  ValueList *output_stores; /* per object, its stores (when outputs are analysed) */
  LLVMValueRef *input_at;
  LLVMValueRef *copy_lo, *copy_len, *copy_delta;
  ValueList copied;
  ValueMap copy_flag;
  /* Chunks of a dynamic, guided or chunked static schedule (see "chunks" below): per block, whether a
   * thread's next chunk starts there; whether any does; rev: the plan array the runtime fills. */
  bool *boundary;
  bool chunked;
  LLVMValueRef chunk_ranges; /* aug: the array handed over as a chunk starts */
  LLVMValueRef own;
  LLVMValueRef chunk_skip;   /* rev: chunk starts still to pass before asking for plans */
  /* rev (see "the common plan" below): the plan's flags that are true where the thread owns all it read
   * and holds copies of its inputs, and those of them that say a copy was made; where the entry's choice
   * goes: the sweep's copy for each, and the sweep for any plan. */
  ValueList common, copy_common;
  LLVMBasicBlockRef common_at, gathers_at, copies_at, general_at;
};

/* The block a loop leaves to, if it leaves to one only. */
static LLVMBasicBlockRef loop_exit(RevGen *g, Loop *l) {
  LLVMBasicBlockRef exit = NULL;
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    LLVMValueRef term = l->body[b] ? LLVMGetBasicBlockTerminator(g->cfg.blocks.data[b]) : NULL;
    for (unsigned i = 0, n = term ? LLVMGetNumSuccessors(term) : 0; i < n; i++) {
      LLVMBasicBlockRef to = LLVMGetSuccessor(term, i);
      if (in_loop(g, l, to)) continue;
      if (exit && exit != to) return NULL;
      exit = to;
    }
  }
  return exit;
}

/* The object an address is in: through offsets, and through a pointer that walks it in a loop (a phi of
 * a start and offsets from itself, as clang's combining loop of an array reduction is written). */
static LLVMValueRef root_of(LLVMValueRef p) {
  for (int depth = 0; depth < 4; depth++) {
    p = rev_root_of(p); /* through offsets, constant ones into a global too (u[N - 1][j]'s row) */
    if (!LLVMIsAPHINode(p)) return p;
    LLVMValueRef start = NULL;
    for (unsigned i = 0, n = LLVMCountIncoming(p); i < n; i++) {
      LLVMValueRef from = rev_root_of(LLVMGetIncomingValue(p, i));
      if (from == p) continue;
      if (start && from != start) return p;
      start = from;
    }
    if (!start) return p;
    p = start;
  }
  return p;
}

/* A global array of floats (and integers) holding derivatives: its shadow is a global of its own
 * (ad/global_shadows.h), at a distance from it known at link time. */
static bool global_array_with_shadow(LLVMValueRef r) {
  return LLVMIsAGlobalVariable(r) && ad_is_mutable_global_with_shadow(r) && !ir_contains_ptr(LLVMGlobalGetValueType(r));
}

/* In a region, a global holding derivatives and pointers: noted, but its adjoints added atomically. */
static bool atomic_only_root(RevGen *g, LLVMValueRef r) {
  return g->region_body && ad_is_mutable_global_with_shadow(r) && !global_array_with_shadow(r);
}

/* The same address on every execution: the object itself or a constant offset into it. */
static bool invariant_address(LLVMValueRef p) {
  for (int i = 0; i < 64; i++) {
    p = ir_strip_pointer_casts(p);
    if (!LLVMIsAGetElementPtrInst(p)) return true;
    for (unsigned k = 1, n = (unsigned)LLVMGetNumOperands(p); k < n; k++)
      if (!LLVMIsAConstantInt(LLVMGetOperand(p, k))) return false;
    p = LLVMGetOperand(p, 0);
  }
  return false;
}

/* Whether the function stores no pointer into memory other threads see, by a store, an atomic or a copy
 * that may hold pointers: then a struct's pointers to its arrays hold the same arrays on every thread
 * throughout the call. */
static bool keeps_pointers(RevGen *g) {
  struct SharedMemory *s = g->shared;
  if (s->keeps_pointers >= 0) return s->keeps_pointers;
  bool keeps = true;
  for (size_t b = 0; b < g->cfg.blocks.len && keeps; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i && keeps; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef to = NULL, what = NULL;
      if (LLVMIsAStoreInst(i)) to = LLVMGetOperand(i, 1), what = LLVMGetOperand(i, 0);
      else if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i)) to = LLVMGetOperand(i, 0), what = LLVMGetOperand(i, 1);
      if (what) {
        keeps = rev_thread_private(to) || !ir_contains_ptr(LLVMTypeOf(what));
      } else if (ir_is_call(i)) {
        CallKind kind = call_classify(i, NULL);
        if ((kind == CALL_MEMCPY || kind == CALL_MEMSET) && !rev_thread_private(LLVMGetArgOperand(i, 0))) {
          DataKind d = memtype_of_copy(i);
          keeps = d == DATA_F64 || d == DATA_F32 || d == DATA_INT;
        }
      }
    }
  s->keeps_pointers = keeps;
  return keeps;
}

/* Whether, besides keeping pointers, the function makes no call that might store one where other threads
 * see it (a call of the program's, or through a pointer, to a function that might): then a pointer it
 * reads at one place holds the same value whenever it reads it. */
static bool pointers_fixed(RevGen *g) {
  struct SharedMemory *s = g->shared;
  if (s->pointers_fixed >= 0) return s->pointers_fixed;
  bool fixed = keeps_pointers(g);
  for (size_t b = 0; b < g->cfg.blocks.len && fixed; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i && fixed; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call(i) || call_quiet(i)) continue;
      CallKind kind = call_classify(i, NULL);
      OmpKind omp = kind == CALL_OMP ? omp_classify(i) : OMP_UNSUPPORTED; /* no region or task: their code stores */
      fixed = (kind == CALL_OMP && omp != OMP_FORK && omp != OMP_TASK_ALLOC && omp != OMP_TASK_SPAWN && omp != OMP_UNSUPPORTED) ||
              kind == CALL_MATH || kind == CALL_DEBUG || kind == CALL_ALLOC || kind == CALL_FREE || kind == CALL_MEMCPY ||
              kind == CALL_MEMSET /* copies: keeps_pointers */ ||
              ((kind == CALL_MODULE || kind == CALL_INDIRECT) && !rev_call_may_store_pointers(g->ad, i, true));
    }
  s->pointers_fixed = fixed;
  return fixed;
}

/* An object the function reaches the same way on every thread: a parameter (a shared variable's
 * address), a pointer read from one (a shared array), a global; and, where the function stores no
 * pointer others see, a pointer read from such an object (a struct of arrays' array: m->x[i]). Such a
 * pointer read in a loop (`S->tw[j]` where the optimiser left the field's load under an inner loop's
 * guard, not knowing S there to be read) is one too where it is read at a fixed place and nothing the
 * function calls may store one: every read gets the same pointer (a root "repeated", whose value the
 * function has only after its block ran, each time anew). */
static bool direct_root_at(RevGen *g, LLVMValueRef r, int depth) {
  if (LLVMIsAArgument(r) || LLVMIsAGlobalVariable(r)) return true;
  if (!LLVMIsALoadInst(r)) return false;
  if (!cfg_runs_once(&g->cfg, LLVMGetInstructionParent(r)) && !(invariant_address(LLVMGetOperand(r, 0)) && pointers_fixed(g)))
    return false;
  LLVMValueRef from = root_of(LLVMGetOperand(r, 0));
  if (LLVMIsAArgument(from) || LLVMIsAGlobalVariable(from)) return true;
  return depth < 2 && keeps_pointers(g) && direct_root_at(g, from, depth + 1);
}

static bool direct_root(RevGen *g, LLVMValueRef r) { return direct_root_at(g, r, 0); }

/* An address whose value the forward sweep has, once its block ran, for the whole call (its reverse
 * finds it in the frame): an argument, a global, or computed in a block that runs once. */
static bool defined_once(RevGen *g, LLVMValueRef p) {
  return !LLVMIsAInstruction(p) || cfg_runs_once(&g->cfg, LLVMGetInstructionParent(p));
}

/* Whether a GEP's offsets are all constants. */
static bool constant_offsets(LLVMValueRef gep) {
  for (unsigned k = 1, n = (unsigned)LLVMGetNumOperands(gep); k < n; k++)
    if (!LLVMIsAConstantInt(LLVMGetOperand(gep, k))) return false;
  return true;
}

/* The object an address is in, in a task's function: the nearest address it is a variable offset from that
 * the function computes once (a tile's start, not the array of tiles; the tile's, not its elements' that an
 * unrolled loop computes once each), so that each tile a task reads has a range of its own. A task's
 * function runs once per task: there are no other threads' objects to compare with, as in a region's. */
static LLVMValueRef task_root_of(RevGen *g, LLVMValueRef p) {
  for (int i = 0; i < 64; i++) {
    p = ir_strip_pointer_casts(p);
    if (!LLVMIsAGetElementPtrInst(p)) break;
    LLVMValueRef base = ir_strip_pointer_casts(LLVMGetOperand(p, 0));
    if (defined_once(g, p) && (!constant_offsets(p) || !defined_once(g, base))) break;
    p = LLVMGetOperand(p, 0);
  }
  return defined_once(g, p) ? p : root_of(p);
}

static LLVMValueRef pointer_operand(LLVMValueRef inst) {
  switch (LLVMGetInstructionOpcode(inst)) {
  case LLVMLoad: return LLVMGetOperand(inst, 0);
  case LLVMStore: return LLVMGetOperand(inst, 1);
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg: return LLVMGetOperand(inst, 0);
  default: return NULL;
  }
}

static int index_of(ValueList *l, LLVMValueRef v) {
  for (size_t i = 0; i < l->len; i++)
    if (l->data[i] == v) return (int)i;
  return -1;
}

/* Whether a memset or memcpy writes object k (see "bulk copies"). */
static bool bulk_written(struct SharedMemory *s, size_t k) {
  for (size_t i = 0; i < s->filled.len; i++)
    if (s->filled.data[i] == k) return true;
  return false;
}

/* A call that may touch shared memory out of sight. Active memory a callee can reach is reached through
 * its pointer arguments or globals with shadows, so a call whose active pointers are all the thread's own
 * (or that takes none: a pair potential called through a table), and that reaches no such global, leaves
 * the shared objects' adjoints to this function. */
static bool passes_shared(RevGen *g, LLVMValueRef call) {
  const MathRule *rule;
  switch (call_classify(call, &rule)) {
  case CALL_MATH: /* its reverse clears the shadow of what it wrote (modf's integral part) */
    if (rule->writes != WRITES_NONE) break;
    return false;
  case CALL_DEBUG:
  case CALL_INACTIVE:
  case CALL_ALLOC:
  case CALL_FREE: return false;
  case CALL_OMP: /* scheduling and synchronisation take only the thread's own variables and locks; a task
                     may run on any thread, its adjoints added by its creator's */
    if (omp_classify(call) == OMP_TASK_ALLOC) return true;
    break;
  case CALL_MODULE:
  case CALL_INDIRECT: /* a callee may also reach globals with shadows, which the plan may cover */
    if (ad_call_reaches_active_global(call)) return true;
    break;
  case CALL_MEMCPY:
  case CALL_MEMSET:
  case CALL_REALLOC: break;
  default: return true;
  }
  for (unsigned i = 0, n = ir_num_call_args(call); i < n; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i);
    if (ir_is_ptr(LLVMTypeOf(a)) && activity_active(g->act, a) && !rev_thread_own(g->ad, a)) return true;
  }
  return false;
}

static unsigned access_size(RevGen *g, LLVMValueRef inst) {
  LLVMTypeRef t = LLVMIsAStoreInst(inst) ? LLVMTypeOf(LLVMGetOperand(inst, 0)) : LLVMTypeOf(inst);
  return (unsigned)ir_type_size(g->ad->mod, t);
}

/* Puts access i of object k into its block's group (blocks are analysed one after the other). */
static void group(RevGen *g, struct SharedMemory *s, LLVMValueRef i, unsigned k) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(i);
  long long off = 0;
  LLVMValueRef anchor = ir_strip_constant_offsets(g->ad->mod, pointer_operand(i), &off);
  long long end = off + (long long)access_size(g, i);
  unsigned slot = RANGE_FIELDS * k + (LLVMIsALoadInst(i) ? READ_LO : WRITTEN_LO);
  size_t n = s->groups.len;
  while (n > 0 && s->groups.data[n - 1].block == bb) {
    struct Group *gr = &s->groups.data[--n];
    if (gr->anchor != anchor || gr->slot != slot) continue;
    if (off < gr->lo) gr->lo = off;
    if (end > gr->hi) gr->hi = end;
    vmap_put(&s->group_of, i, (void *)(n + 1));
    return;
  }
  vec_push(&s->groups, ((struct Group){.block = bb, .anchor = anchor, .slot = slot, .lo = off, .hi = end}));
  vmap_put(&s->group_of, i, (void *)s->groups.len);
}

/* ---- chunks ----
 * Under a dynamic, guided or chunked static schedule a thread's iterations come in chunks that interleave
 * with the other threads': the hull of all a thread read covers the others' reads, and nothing would be
 * its own. Each chunk is noted apart instead: as a chunk starts, the forward sweep hands the runtime the
 * ranges read since the last start (__parad_rt_shared_chunk) and starts them again; the reverse sweep,
 * which meets the same starts in the opposite order, asks there for the part of the chunk before them
 * that no other thread read in any of its chunks (__parad_rt_shared_chunk_plan), and so reads its own
 * part from the plan array where it tests an address (own_field). A chunk starts at the start of a block
 * calling __kmpc_dispatch_next, and at the header of the loop over a chunked static schedule's chunks
 * (the outermost loop after its init). Only the ranges read are per chunk: writes, periods and the
 * addresses summed in registers stay the thread's. A loop holding a start is never noted per run: its
 * run would span chunks. */

static bool holds_boundary(RevGen *g, Loop *l) {
  for (size_t b = 0; g->shared && g->shared->boundary && b < g->cfg.blocks.len; b++)
    if (l->body[b] && g->shared->boundary[b]) return true;
  return false;
}

/* The loop over the chunks of the static schedule init at bb sets up: the outermost loop bb dominates. */
static void mark_chunk_loops(RevGen *g, LLVMBasicBlockRef bb, bool *boundary) {
  for (size_t i = 0; i < g->loops.len; i++) {
    Loop *l = &g->loops.data[i];
    if (in_loop(g, l, bb) || !cfg_dominates(&g->cfg, bb, l->header)) continue;
    bool inner = false;
    for (size_t j = 0; j < g->loops.len && !inner; j++) {
      Loop *o = &g->loops.data[j];
      inner = o != l && in_loop(g, o, l->header) && !in_loop(g, o, bb) && cfg_dominates(&g->cfg, bb, o->header);
    }
    if (!inner) boundary[cfg_index(&g->cfg, l->header)] = true;
  }
}

static void find_boundaries(RevGen *g) {
  struct SharedMemory *s = g->shared;
  if (!g->region_body) return;
  s->boundary = xcalloc(g->cfg.blocks.len + 1, sizeof *s->boundary);
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      if (!ir_is_call(i)) continue;
      if (omp_is_dispatch_next(i)) s->boundary[b] = true;
      if (omp_is_static_chunked_init(i)) mark_chunk_loops(g, g->cfg.blocks.data[b], s->boundary);
    }
  for (size_t b = 0; b < g->cfg.blocks.len; b++) s->chunked |= s->boundary[b];
}

/* ---- gathers through an index array ----
 * A sparse product's p[col[k]] widens the object's range at every read: two comparisons and two selects
 * per nonzero, as many instructions as the product itself. Where the index is read from an array in a
 * run of the innermost loop, at consecutive elements, in the same block as the gather, the forward sweep
 * notes instead the run of the index array (once per run: consecutive runs, a CSR matrix's rows, make
 * one), and the runtime finds the smallest and largest index in it when the run breaks off and as the
 * function returns (__parad_rt_index_span): the same range, at a fraction of the cost. Valid only while
 * the index array keeps the values the gathers used: nothing in the function may write integers into
 * memory other threads see (under C's aliasing rules, which the index load's type tag says are in
 * force, floats and pointers stored elsewhere cannot change it), nor call what could. */

/* Whether the function writes no integers outside its threads' own memory, and calls nothing that could. */
static bool integers_unwritten(RevGen *g) {
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      if (ir_is_call(i)) {
        const MathRule *rule;
        CallKind k = call_classify(i, &rule);
        if (k == CALL_DEBUG || k == CALL_ALLOC || k == CALL_FREE) continue;
        if (k == CALL_OMP) {
          OmpKind o = omp_classify(i);
          if (o == OMP_SCHEDULE || o == OMP_BARRIER || o == OMP_CRITICAL || o == OMP_END_CRITICAL || o == OMP_ORDERED) continue;
          return false;
        }
        if (k != CALL_INACTIVE && k != CALL_MATH && k != CALL_MEMCPY && k != CALL_MEMSET) return false;
        for (unsigned a = 0, n = ir_num_call_args(i); a < n; a++) {
          LLVMValueRef v = LLVMGetArgOperand(i, a);
          bool writes = k == CALL_MEMCPY || k == CALL_MEMSET ? a == 0 : call_writes_argument(i, a);
          if (ir_is_ptr(LLVMTypeOf(v)) && writes && !rev_thread_private(v)) return false;
        }
        continue;
      }
      LLVMValueRef p = pointer_operand(i);
      if (!p || LLVMIsALoadInst(i) || rev_thread_private(p)) continue;
      LLVMTypeRef t = LLVMIsAStoreInst(i) ? LLVMTypeOf(LLVMGetOperand(i, 0)) : LLVMTypeOf(i);
      LLVMTypeKind kind = LLVMGetTypeKind(ir_scalar_type(t));
      if (kind != LLVMDoubleTypeKind && kind != LLVMFloatTypeKind && kind != LLVMPointerTypeKind) return false;
    }
  return true;
}

/* v without an integer extension, and whether it was signed (a GEP's own index is). */
static LLVMValueRef strip_extension(LLVMValueRef v, bool *is_signed) {
  *is_signed = true;
  if (LLVMIsASExtInst(v)) return LLVMGetOperand(v, 0);
  if (LLVMIsAZExtInst(v)) {
    *is_signed = false;
    return LLVMGetOperand(v, 0);
  }
  return v;
}

/* For a GEP base + i (elements of type T) or base + 0 + i (an array of T's), i and the size of T (0 for
 * any other GEP). */
static unsigned long long element_index(RevGen *g, LLVMValueRef gep, LLVMValueRef *i) {
  if (!LLVMIsAGetElementPtrInst(gep)) return 0;
  LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
  unsigned n = (unsigned)LLVMGetNumOperands(gep);
  if (n == 3) {
    LLVMValueRef zero = LLVMGetOperand(gep, 1);
    if (LLVMGetTypeKind(t) != LLVMArrayTypeKind || !LLVMIsAConstantInt(zero) || LLVMConstIntGetZExtValue(zero)) return 0;
    t = LLVMGetElementType(t);
  } else if (n != 2) {
    return 0;
  }
  *i = LLVMGetOperand(gep, n - 1);
  return ir_type_size(g->ad->mod, t);
}

/* Whether p walks one element per iteration of l: base + iv (through an extension), elements of the
 * access's size, iv stepping by 1 or -1. */
static bool consecutive(RevGen *g, Loop *l, LLVMValueRef p, unsigned size) {
  LLVMValueRef i;
  if (element_index(g, p, &i) != size || !loop_invariant(g, l, LLVMGetOperand(p, 0))) return false;
  bool is_signed;
  int k = loop_iv_index(l, strip_extension(i, &is_signed));
  if (k < 0) return false;
  long long step = LLVMConstIntGetSExtValue(l->ivs.data[k].step);
  return step == 1 || step == -1;
}

/* Blocks of an index array read one per iteration, each at most this many bytes (an element's corners). */
enum { INDEX_BLOCK_MOST = 64 };

/* The address that walks the index array read at p (elements of `size` bytes) one iteration's elements at a
 * time, and the bytes it steps by: p itself where it walks the array element by element; else, where p is
 * a constant offset into a block that base + (iv << k) (or iv * m) elements start, iv stepping by 1 or -1,
 * that block's start. NULL for neither. */
static LLVMValueRef index_walk(RevGen *g, Loop *l, LLVMValueRef p, unsigned size, unsigned *step) {
  *step = size;
  if (consecutive(g, l, p, size)) return p;
  LLVMValueRef block = ir_strip_pointer_casts(p), i;
  long long offset = 0;
  if (LLVMIsAGetElementPtrInst(block) && constant_offsets(block) && LLVMGetNumOperands(block) == 2) {
    offset = LLVMConstIntGetSExtValue(LLVMGetOperand(block, 1)) * (long long)ir_type_size(g->ad->mod, LLVMGetGEPSourceElementType(block));
    block = ir_strip_pointer_casts(LLVMGetOperand(block, 0));
  }
  if (element_index(g, block, &i) != size || !loop_invariant(g, l, LLVMGetOperand(block, 0)) || !LLVMIsABinaryOperator(i) ||
      !LLVMIsAConstantInt(LLVMGetOperand(i, 1)))
    return NULL;
  unsigned long long c = LLVMConstIntGetZExtValue(LLVMGetOperand(i, 1)), elements;
  if (LLVMGetInstructionOpcode(i) == LLVMShl && c < 8) elements = 1ull << c;
  else if (LLVMGetInstructionOpcode(i) == LLVMMul && c > 0 && c < INDEX_BLOCK_MOST) elements = c;
  else return NULL;
  bool is_signed;
  int k = loop_iv_index(l, strip_extension(LLVMGetOperand(i, 0), &is_signed));
  long long iv_step = k >= 0 ? LLVMConstIntGetSExtValue(l->ivs.data[k].step) : 0;
  if ((iv_step != 1 && iv_step != -1) || elements * size > INDEX_BLOCK_MOST || offset < 0 || offset % size ||
      (unsigned long long)offset + size > elements * size)
    return NULL;
  *step = (unsigned)(elements * size);
  return block;
}

bool indexed_gather(RevGen *g, LLVMValueRef address, LLVMBasicBlockRef block, IndexedGather *out) {
  LLVMValueRef i;
  unsigned long long scale = element_index(g, address, &i);
  if (!scale) return false;
  bool is_signed;
  LLVMValueRef index = strip_extension(i, &is_signed);
  Loop *l = loop_innermost(g, block);
  if (!l || !l->exit_iv || !LLVMIsALoadInst(index) || LLVMGetInstructionParent(index) != block) return false;
  if (LLVMGetVolatile(index) || LLVMGetOrdering(index) != LLVMAtomicOrderingNotAtomic) return false;
  if (LLVMGetTypeKind(LLVMTypeOf(index)) != LLVMIntegerTypeKind || !LLVMGetMetadata(index, LLVMGetMDKindIDInContext(g->ctx, "tbaa", 4))) return false;
  if (!cfg_every_iteration(&g->cfg, l->body, l->header, l->latch, block)) return false;
  unsigned walk_size;
  LLVMValueRef walk = index_walk(g, l, LLVMGetOperand(index, 0), access_size(g, index), &walk_size);
  if (!walk) return false;
  *out = (IndexedGather){index, LLVMGetOperand(address, 0), (long long)scale, is_signed, l, walk, walk_size};
  return true;
}

/* Fills gr's index fields where its anchor is a gather through an index array its block reads in a run. */
static void find_index(RevGen *g, struct Group *gr) {
  IndexedGather x;
  if (!indexed_gather(g, gr->anchor, gr->block, &x) || holds_boundary(g, x.loop) || !defined_once(g, x.base)) return;
  gr->index = x.index, gr->base = x.base, gr->is_signed = x.is_signed, gr->loop = x.loop, gr->scale = x.scale;
  gr->walk = x.walk, gr->walk_size = x.walk_size;
}

static void find_indices(RevGen *g) {
  struct SharedMemory *s = g->shared;
  if (!g->region_body || !s->groups.len || !integers_unwritten(g)) return;
  unsigned gathers = 0;
  for (size_t i = 0; i < s->groups.len; i++) {
    struct Group *gr = &s->groups.data[i];
    find_index(g, gr);
    if (gr->index && !s->chunked && gathers < MAX_GATHERS) gr->number = ++gathers; /* a chunked function's plans go by chunk */
  }
}

/* ---- inputs read from copies ----
 * An object the function only reads has its reads in loops taken, in the reverse sweep, from a copy of
 * what the thread or task read, made as the function returns (runtime/omp.c, shared_input), instead of
 * recorded read by read:
 *   - a task's, in a function without synchronisation, wherever a run of the loop lies inside one of the
 *     task's depend(in:) dependences: the forward sweep tests each run as the loop starts, as it notes the
 *     run's addresses, and records the run's values only when it lies outside; the reverse sweep tests the
 *     run again, from the same addresses;
 *   - a region's thread's, where the object is read in a loop at addresses that are not linear in its
 *     counters (a sparse product's p[col[k]]: 8 bytes per nonzero recorded, against 8 per element of the
 *     range the thread read), or only element by element (streamed): all its reads in loops, throughout
 *     the call. No other thread writes what a
 *     thread reads in the region but through another object that aliases it (through the object itself
 *     it would not be an input), which the runtime checks against every thread's notes. */

/* OpenMP calls a region's function may make and keep its inputs: the worksharing loops' bookkeeping, and
 * critical sections (a reduction's), which order a thread's reads with another's writes only where both
 * write (no thread writes an input: another object the thread writes that aliases it is found at run time). */
static bool region_keeps_inputs(LLVMValueRef call) {
  OmpKind k = omp_classify(call);
  return k == OMP_SCHEDULE || k == OMP_CRITICAL || k == OMP_END_CRITICAL;
}

/* Whether another thread may write, while the task (or the region's thread) runs, what it reads, and be
 * ordered with it: atomics, fences, OpenMP's synchronisation, calls that may do any of them. */
static bool synchronises(RevGen *g) {
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      if (op == LLVMFence || op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg) return true;
      if ((op == LLVMLoad || op == LLVMStore) && (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic))
        return true;
      if (!ir_is_call(i) || LLVMGetIntrinsicID(LLVMGetCalledValue(i))) continue;
      switch (call_classify(i, NULL)) {
      case CALL_MATH:
      case CALL_DEBUG:
      case CALL_ALLOC:
      case CALL_FREE: break;
      case CALL_OMP:
        if (g->region_body && region_keeps_inputs(i)) break;
        return true;
      default: return true;
      }
    }
  return false;
}

/* Whether two of a region's objects come from one place: the address their pointers are loaded from (a
 * shared variable, read again after each barrier or call; a struct's field, read in two blocks through
 * two computations of its address), else the objects themselves. */
static bool same_source(RevGen *g, LLVMValueRef a, LLVMValueRef b) {
  if (!LLVMIsALoadInst(a) || !LLVMIsALoadInst(b)) return a == b;
  long long at = 0, bt = 0;
  return ir_strip_constant_offsets(g->ad->mod, LLVMGetOperand(a, 0), &at) == ir_strip_constant_offsets(g->ad->mod, LLVMGetOperand(b, 0), &bt) &&
         at == bt;
}

/* A region's object read in a loop at an address not linear in the loop's counters (monotone ones too:
 * their objects' reads, each as costly to record, are read back from a copy all the same). */
static bool gathered(RevGen *g, size_t k) {
  struct SharedMemory *s = g->shared;
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i))
      if (LLVMIsALoadInst(i) && (size_t)vmap_get(&s->root_of, i) == k + 1 && (!vmap_get(&s->loop_of, i) || vmap_get(&s->monotone, i)) &&
          loop_innermost(g, g->cfg.blocks.data[b]))
        return true;
  return false;
}

/* ---- a region's streamed inputs: copied as each run starts ----
 * An object a region's function only reads, in loops and element by element (a CG update's p[i] and
 * q[i]), is read in the reverse sweep from a copy of what the run reads, made as the run starts, instead of
 * recorded an iteration at a time: one copy of the range instead of a store per iteration, and none where
 * an earlier copy holds the same bytes (the runtime compares: the product's copy of p serves the update).
 * Made as the run starts, not as the thread leaves, so that only the run's own stores could change what it
 * reads before it reads it (another thread's would be a race): a run whose stores may write there (an
 * update in place through a second pointer, out == in) records as before. The runs are those of loops
 * whose records are reserved at once (rev_bulk.c), which keep a word saying which objects were copied. */

/* Whether every write the function may make into memory other threads see is a store or atomic of one of
 * its objects, which it notes: no other store, and no call that writes but into fresh memory or the
 * thread's own (runtime/omp.c, "copies trusted", reads a region's notes as all it wrote). */
static bool all_writes_noted(RevGen *g) {
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      if ((op == LLVMStore || op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg) && !vmap_get(&g->shared->root_of, i) &&
          !rev_thread_private(pointer_operand(i)))
        return false;
      if (!ir_is_call(i) || call_quiet(i)) continue;
      CallKind k = call_classify(i, NULL);
      if (k == CALL_ALLOC || k == CALL_FREE || vmap_get(&g->shared->fills, i)) continue;
      if (k == CALL_OMP && (region_keeps_inputs(i) || omp_classify(i) == OMP_BARRIER)) continue;
      return false;
    }
  return true;
}

/* Whether every write of memory in l is a store at an address linear in its counters, or into the
 * thread's own memory, and nothing in it synchronises. */
static bool writes_linear(RevGen *g, Loop *l) {
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = l->body[b] ? LLVMGetFirstInstruction(g->cfg.blocks.data[b]) : NULL; i; i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      if (op == LLVMFence || op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg) return false;
      if (op == LLVMStore && (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic ||
                              !(rev_thread_private(LLVMGetOperand(i, 1)) || loop_linear(g, l, LLVMGetOperand(i, 1), 0))))
        return false;
      if (ir_is_call(i) && !call_writes_nothing(i)) return false;
    }
  return true;
}

/* Whether nothing on any path from the function's entry to l's preheader writes memory other threads
 * see or synchronises: a copy made as l's first run starts holds what the memory held as the region
 * forked, wherever the run reads (runtime/omp.c, "copies trusted"). */
static bool nothing_before(RevGen *g, Loop *l) {
  size_t n = g->cfg.blocks.len, top = 0;
  bool *seen = xcalloc(n + 1, sizeof *seen), quiet = true;
  int *todo = xcalloc(n + 1, sizeof *todo), at = cfg_index(&g->cfg, l->preheader);
  if (at >= 0) todo[top++] = at, seen[at] = true;
  while (quiet && top) {
    int b = todo[--top];
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); quiet && i; i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      if (op == LLVMFence || op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg) quiet = false;
      if (op == LLVMStore && !rev_thread_private(LLVMGetOperand(i, 1))) quiet = false;
      if (ir_is_call(i) && !call_quiet(i)) quiet = false;
    }
    for (size_t p = 0; p < g->cfg.preds[b].len; p++) {
      int c = cfg_index(&g->cfg, g->cfg.preds[b].data[p]);
      if (c >= 0 && !seen[c]) seen[c] = true, todo[top++] = c;
    }
  }
  free(seen);
  free(todo);
  return quiet && at >= 0;
}

/* A loop whose runs may read from copies: counted, with no loop inside and every block run in every
 * iteration (its records are reserved at once), and its writes linear. */
static bool streamable_loop(RevGen *g, Loop *l) {
  struct SharedMemory *s = g->shared;
  if (!s->streamable) s->streamable = xcalloc(g->loops.len + 1, 1);
  char *known = &s->streamable[l - g->loops.data];
  if (*known) return *known == 2;
  bool ok = l->exit_iv != NULL;
  for (size_t i = 0; ok && i < g->loops.len; i++) ok = &g->loops.data[i] == l || !in_loop(g, l, g->loops.data[i].header);
  for (size_t b = 0; ok && b < g->cfg.blocks.len; b++)
    ok = !l->body[b] || cfg_every_iteration(&g->cfg, l->body, l->header, l->latch, g->cfg.blocks.data[b]);
  *known = ok && writes_linear(g, l) ? 2 : 1;
  return *known == 2;
}

/* Whether every write of object k is a store, in a loop whose runs may read from copies, to the address
 * that each of its loads in the loop reads, in the same block, after them all (the direction update of a
 * CG iteration, p[i] = r[i] + beta p[i]): each iteration writes only what it alone reads, once it has read
 * it, so that a copy made as the run starts holds what every read read. */
static bool updated_in_place(RevGen *g, size_t k) {
  struct SharedMemory *s = g->shared;
  bool any = false;
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      if ((size_t)vmap_get(&s->root_of, i) != k + 1 || LLVMIsALoadInst(i)) continue;
      Loop *l = loop_innermost(g, g->cfg.blocks.data[b]);
      if (!LLVMIsAStoreInst(i) || !l || !streamable_loop(g, l)) return false;
      LLVMValueRef at = LLVMGetOperand(i, 1);
      bool read_before = false, stored = false;
      for (size_t c = 0; c < g->cfg.blocks.len; c++)
        for (LLVMValueRef j = l->body[c] ? LLVMGetFirstInstruction(g->cfg.blocks.data[c]) : NULL; j; j = LLVMGetNextInstruction(j)) {
          if ((size_t)vmap_get(&s->root_of, j) != k + 1) continue;
          if (pointer_operand(j) != at || c != b || (stored && LLVMIsALoadInst(j))) return false;
          read_before |= !stored && LLVMIsALoadInst(j) != NULL;
          stored |= LLVMIsAStoreInst(j) != NULL;
        }
      if (!read_before) return false;
      any = true;
    }
  return any;
}

/* An object whose every read in a loop walks it element by element, in a loop whose runs may read from
 * copies. */
static bool streamed(RevGen *g, size_t k) {
  struct SharedMemory *s = g->shared;
  bool any = false;
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    if (!loop_innermost(g, g->cfg.blocks.data[b])) continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsALoadInst(i) || (size_t)vmap_get(&s->root_of, i) != k + 1) continue;
      Loop *run = vmap_get(&s->loop_of, i);
      if (!run || !consecutive(g, run, LLVMGetOperand(i, 0), access_size(g, i)) || !streamable_loop(g, run)) return false;
      any = true;
    }
  }
  return any;
}

/* ---- a region's streamed outputs: copied as the loop ends ----
 * An object a region's function only writes, by one store in a loop that runs once per call, element by
 * element (cg's product, q[i] = s), holds what each iteration stored as the loop ends, unless a later
 * store of the run wrote there too: the reverse sweep reads the stored values there instead of records
 * (the product's row sums, 8 bytes a row), from a copy made as the loop ends (which the update's copy of q
 * then shares). Where one of the run's other stores may write the range, tested as the run starts, the run
 * records as before; another thread's write there would be a race. */
static void streamed_outputs(RevGen *g) {
  struct SharedMemory *s = g->shared;
  s->out_loop = xcalloc(s->roots.len + 1, sizeof *s->out_loop);
  LLVMValueRef *store = xcalloc(s->roots.len + 1, sizeof *store);
  bool *other = xcalloc(s->roots.len + 1, sizeof *other); /* a load, or a second store */
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      size_t k1 = (size_t)vmap_get(&s->root_of, i);
      if (!k1) continue;
      if (!LLVMIsAStoreInst(i) || store[k1 - 1]) other[k1 - 1] = true;
      else store[k1 - 1] = i;
    }
  for (size_t i = 0; i < s->filled.len; i++) other[s->filled.data[i]] = true;
  for (size_t k = 0; k < s->roots.len; k++) {
    LLVMValueRef st = store[k], v = st ? LLVMGetOperand(st, 0) : NULL;
    if (!st || other[k] || s->streamed[k] || !LLVMIsAInstruction(v) || !ir_is_fp(LLVMTypeOf(v))) continue;
    LLVMBasicBlockRef sb = LLVMGetInstructionParent(st);
    Loop *l = loop_innermost(g, sb);
    if (!l || !l->exit_iv || !l->preheader || !cfg_runs_once(&g->cfg, l->preheader) || loop_innermost(g, LLVMGetInstructionParent(v)) != l ||
        !cfg_every_iteration(&g->cfg, l->body, l->header, l->latch, sb) || !consecutive(g, l, LLVMGetOperand(st, 1), access_size(g, st)) ||
        !writes_linear(g, l) || !loop_exit(g, l))
      continue;
    s->out_loop[k] = l;
    vmap_put(&s->stored_by, v, st);
    vec_push(&s->copied, v);
  }
  free(store);
  free(other);
}

/* ---- a task's outputs: read back from a copy of what they hold as it ends ----
 * A triangular solve in place reads, in its inner loop, the entries of its row it finished earlier: an
 * object it writes (under a depend(inout:), as the tile it solves), at addresses no later store of the
 * task writes again. Those reads hold, as the task ends, what they read: copied then with the task's
 * inputs (the part of the dependence the task read), they are read back from the copy in the reverse
 * sweep instead of being recorded one by one. No later store of the object overwrites what such a read
 * read: proven by the dependence test (analysis/dependence.h), store by store. Another object of the
 * task that aliases it and writes there is found at run time (the copy is refused with a message), as
 * for inputs. */

enum { MAX_OUTPUT_STORES = 16 }; /* the test's cost: loads times stores */

/* Whether no store of load's object may overwrite, after the load, what it read. */
static bool final_read(RevGen *g, LLVMValueRef load) {
  struct SharedMemory *s = g->shared;
  const ValueList *stores = &s->output_stores[(size_t)vmap_get(&s->root_of, load) - 1];
  if (!g->dependence) g->dependence = dependence_new(g->orig);
  for (size_t i = 0; i < stores->len; i++)
    if (dependence_may_overwrite(g->dependence, load, stores->data[i])) return false;
  return true;
}

/* A task's objects that it writes only by stores of its own (inputs_analyse has refused every other
 * write), at most MAX_OUTPUT_STORES, and their stores. */
static void outputs_analyse(RevGen *g) {
  struct SharedMemory *s = g->shared;
  s->output = xcalloc(s->roots.len, sizeof *s->output);
  s->output_stores = xcalloc(s->roots.len, sizeof *s->output_stores);
  bool *atomic = xcalloc(s->roots.len, sizeof *atomic);
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      size_t k1 = (size_t)vmap_get(&s->root_of, i);
      if (k1 && LLVMIsAStoreInst(i)) vec_push(&s->output_stores[k1 - 1], i);
      else if (k1 && !LLVMIsALoadInst(i)) atomic[k1 - 1] = true;
    }
  for (size_t k = 0; k < s->roots.len; k++)
    s->output[k] = s->output_stores[k].len && s->output_stores[k].len <= MAX_OUTPUT_STORES && !atomic[k];
  free(atomic);
}

/* The objects the function only reads, where every write of memory other threads may see is one it notes
 * (the runtime checks that none was into what it copies), and the loads read from their copies; a
 * region's streamed objects, which need neither (their runs' copies are made as the runs start, and a run
 * makes no call that may synchronise or write). */
static void inputs_analyse(RevGen *g) {
  struct SharedMemory *s = g->shared;
  size_t n = s->roots.len;
  bool *only_read = xcalloc(n + 1, sizeof *only_read), kept = !synchronises(g); /* kept: inputs may be */
  for (size_t k = 0; k < n; k++) only_read[k] = true;
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      size_t k1 = (size_t)vmap_get(&s->root_of, i);
      if (k1 && !LLVMIsALoadInst(i)) only_read[k1 - 1] = false;
      size_t filled1 = (size_t)vmap_get(&s->fills, i);
      if (filled1) only_read[filled1 - 1] = false;
      bool unnoted = LLVMIsAStoreInst(i) && !k1 && !rev_thread_private(pointer_operand(i));
      /* a memcpy or memset into the thread's own memory (zeroing a local array) writes nothing others see */
      CallKind call = ir_is_call(i) ? call_classify(i, NULL) : CALL_UNKNOWN;
      if ((call == CALL_MEMCPY || call == CALL_MEMSET) && !rev_thread_private(LLVMGetArgOperand(i, 0)) && !vmap_get(&s->fills, i))
        unnoted = true;
      if (unnoted) kept = false;
    }
  s->input = xcalloc(n + 1, sizeof *s->input);
  if (g->region_body) {
    /* objects one of the same source is written through (not counting an object's own updates in place) */
    bool *written = xcalloc(n + 1, sizeof *written), *in_place = xcalloc(n + 1, sizeof *in_place);
    for (size_t k = 0; k < n; k++) in_place[k] = !only_read[k] && !bulk_written(s, k) && updated_in_place(g, k);
    for (size_t m = 0; m < n; m++)
      for (size_t k = 0; !only_read[m] && k < n; k++)
        if ((k != m || !in_place[m]) && same_source(g, s->roots.data[k], s->roots.data[m])) written[k] = true;
    s->streamed = xcalloc(n + 1, sizeof *s->streamed);
    for (size_t k = 0; k < n; k++) {
      bool gathers = gathered(g, k);
      /* an input is announced as the block computing its pointer ends: once (a repeated root's is not) */
      s->input[k] = kept && only_read[k] && !written[k] && gathers && defined_once(g, s->roots.data[k]);
      s->streamed[k] = (only_read[k] || in_place[k]) && !written[k] && !gathers && streamed(g, k);
    }
    free(written);
    free(in_place);
  } else {
    for (size_t k = 0; k < n; k++) s->input[k] = kept && only_read[k];
  }
  s->writes = xcalloc(n + 1, sizeof *s->writes);
  for (size_t k = 0; k < n; k++) s->writes[k] = !only_read[k];
  free(only_read);
  if (g->region_body) streamed_outputs(g);
  if (g->task_body && kept) outputs_analyse(g);
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      size_t k1 = LLVMIsALoadInst(i) ? (size_t)vmap_get(&s->root_of, i) : 0;
      if (!k1 || vmap_get(&s->defer_of, i)) continue;
      bool per_run = vmap_get(&s->loop_of, i);
      if (s->output && s->output[k1 - 1] && per_run && final_read(g, i)) vec_push(&s->copied, i);
      if (s->streamed && s->streamed[k1 - 1] && per_run) vec_push(&s->copied, i); /* a read outside loops is recorded */
      if (!s->input[k1 - 1]) continue;
      if (g->task_body ? per_run : loop_innermost(g, g->cfg.blocks.data[b]) != NULL) vec_push(&s->copied, i);
    }
}

/* The access a copied value is read back through: the load itself, or the store of a streamed output. */
LLVMValueRef shared_copied_access(RevGen *g, LLVMValueRef v) {
  LLVMValueRef store = vmap_get(&g->shared->stored_by, v);
  return store ? store : v;
}

/* 1 + the object a copied value is read back from. */
static size_t copied_root(RevGen *g, LLVMValueRef v) { return (size_t)vmap_get(&g->shared->root_of, shared_copied_access(g, v)); }

static bool is_streamed(RevGen *g, LLVMValueRef v) {
  struct SharedMemory *s = g->shared;
  size_t k1 = copied_root(g, v);
  return (s->streamed && s->streamed[k1 - 1]) || (s->out_loop && s->out_loop[k1 - 1]);
}

bool shared_copies(RevGen *g, LLVMValueRef load) {
  struct SharedMemory *s = g->shared;
  return s && index_of(&s->copied, load) >= 0;
}

bool shared_copied_in(RevGen *g, LLVMValueRef load, LLVMBasicBlockRef bb) {
  struct SharedMemory *s = g->shared;
  if (!shared_copies(g, load)) return false;
  size_t k1 = copied_root(g, load);
  Loop *l = s->out_loop && s->out_loop[k1 - 1] ? s->out_loop[k1 - 1] : vmap_get(&s->loop_of, load);
  bool per_call = g->region_body && !is_streamed(g, load); /* a region's flags hold throughout the call */
  return per_call || in_loop(g, l, bb);
}

LLVMValueRef shared_copy_flag(RevGen *g, const Capture *c) {
  if (c->item.kind != NEED_PRIMAL || c->frame_slot >= 0 || !shared_copied_in(g, c->item.value, c->block))
    return NULL;
  return g->phase != PLANNING ? vmap_get(&g->shared->copy_flag, c->item.value) : NULL;
}

LLVMValueRef shared_copy_address(RevGen *g, LLVMValueRef load, LLVMValueRef p) {
  struct SharedMemory *s = g->shared;
  LLVMValueRef delta = s->copy_delta[copied_root(g, load) - 1];
  LLVMTypeRef i8 = LLVMInt8TypeInContext(g->ctx);
  unsigned n = LLVMIsAGetElementPtrInst(p) ? (unsigned)LLVMGetNumOperands(p) : 0;
  if (n >= 2 && n <= 4) { /* the copy's base, then the same offset: a gather's loop holds one base, not two */
    LLVMValueRef base = LLVMBuildGEP2(g->b, i8, LLVMGetOperand(p, 0), &delta, 1, "copy.base"), idx[3];
    for (unsigned i = 1; i < n; i++) idx[i - 1] = LLVMGetOperand(p, i);
    return LLVMBuildGEP2(g->b, LLVMGetGEPSourceElementType(p), base, idx, n - 1, "copy");
  }
  return LLVMBuildGEP2(g->b, i8, p, &delta, 1, "copy");
}

/* A slot per copied load, saying whether the current run of its loop reads from the copy. */
static void copy_flags(RevGen *g) {
  struct SharedMemory *s = g->shared;
  vmap_free(&s->copy_flag);
  vmap_init(&s->copy_flag);
  LLVMTypeRef i1 = LLVMInt1TypeInContext(g->ctx);
  for (size_t i = 0; i < s->copied.len; i++) {
    LLVMValueRef slot = LLVMBuildAlloca(g->b, i1, "copied");
    LLVMBuildStore(g->b, LLVMConstInt(i1, 0, 0), slot);
    vmap_put(&s->copy_flag, s->copied.data[i], slot);
  }
}

/* Whether [lo, hi) lies in [start, start + len). */
static LLVMValueRef within(RevGen *g, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef start, LLVMValueRef len) {
  return LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, lo, start, ""),
                      LLVMBuildICmp(g->b, LLVMIntULE, LLVMBuildSub(g->b, hi, start, ""), len, ""), "within");
}

/* Whether a load of object k read from its copy has its value recorded anywhere (planned): else the copy
 * would hold what nothing reads. */
static bool copy_needed(RevGen *g, size_t k) {
  struct SharedMemory *s = g->shared;
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    BlockPlan *p = &g->plan[b];
    for (size_t i = 0; i < p->captures.len; i++) {
      LLVMValueRef v = p->captures.data[i].item.value;
      if (p->captures.data[i].item.kind == NEED_PRIMAL && index_of(&s->copied, v) >= 0 && copied_root(g, v) == k + 1)
        return true;
    }
  }
  return false;
}

static LLVMValueRef aug_input(RevGen *g, unsigned k, LLVMValueRef *len);

/* Sets the flags of a region's copied loads of object k: copied, throughout the call, where `copied`. */
static void set_flags(RevGen *g, size_t k, LLVMValueRef copied) {
  struct SharedMemory *s = g->shared;
  for (size_t i = 0; i < s->copied.len; i++)
    if (copied_root(g, s->copied.data[i]) == k + 1) LLVMBuildStore(g->b, copied, vmap_get(&s->copy_flag, s->copied.data[i]));
}

static LLVMBasicBlockRef root_block(RevGen *g, LLVMValueRef r) {
  return LLVMIsAInstruction(r) ? LLVMGetInstructionParent(r) : g->cfg.blocks.data[0];
}

/* aug, in a region: whether input object k's pointer equals that of an object the function writes, known
 * at the end of bb (i1; NULL: none is). Called in place (waxpby(x, y, w = y), a gather through an index
 * list that is the identity), a thread would read what it or another thread wrote: its reads are recorded
 * instead of copied as it leaves. A write elsewhere into an input (another offset) is found by the runtime. */
static LLVMValueRef written_in_place(RevGen *g, size_t k, LLVMBasicBlockRef bb) {
  struct SharedMemory *s = g->shared;
  LLVMValueRef r = s->roots.data[k], same = NULL;
  for (size_t m = 0; m < s->roots.len; m++) {
    LLVMValueRef w = s->roots.data[m];
    /* bb's own values are all there: the call goes at its end */
    if (!s->writes[m] || w == r || !cfg_dominates(&g->cfg, root_block(g, w), bb) || !aug_value(g, w)) continue;
    LLVMValueRef eq = LLVMBuildICmp(g->b, LLVMIntEQ, aug_value(g, r), aug_value(g, w), "in.place");
    same = same ? LLVMBuildOr(g->b, same, eq, "") : eq;
  }
  return same;
}

/* aug: at the end of the block that computes each input object, the input around it: a task's dependence,
 * everything for a region's thread (nothing where the runtime keeps no copies, or the object is written in
 * place). */
static void find_inputs(RevGen *g, LLVMBasicBlockRef bb) {
  struct SharedMemory *s = g->shared;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
  for (size_t k = 0; s->input_at && k < s->roots.len; k++) {
    LLVMValueRef r = s->roots.data[k];
    if (!s->input_at[k] || root_block(g, r) != bb) continue;
    LLVMValueRef args[4] = {LLVMConstInt(i32, k, 0), LLVMConstInt(i32, s->roots.len, 0), aug_value(g, r), s->input_at[k]};
    LLVMTypeRef params[4] = {i32, i32, g->ptr_type, g->ptr_type};
    const char *fn = s->output && s->output[k] ? "__parad_rt_shared_output" : "__parad_rt_shared_input";
    LLVMValueRef in_place = g->region_body ? written_in_place(g, k, bb) : NULL;
    LLVMBasicBlockRef after = NULL;
    if (in_place) { /* the slot stays {0, 0}: every read recorded */
      LLVMValueRef fn_at = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
      LLVMBasicBlockRef ask = LLVMAppendBasicBlockInContext(g->ctx, fn_at, "input.ask");
      after = LLVMAppendBasicBlockInContext(g->ctx, fn_at, "input.asked");
      LLVMBuildCondBr(g->b, in_place, after, ask);
      LLVMPositionBuilderAtEnd(g->b, ask);
    }
    ir_call_named(g->b, fn, LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 4, 0), args, 4);
    if (after) {
      LLVMBuildBr(g->b, after);
      LLVMPositionBuilderAtEnd(g->b, after);
    }
    if (!g->region_body) continue;
    LLVMValueRef len;
    aug_input(g, (unsigned)k, &len);
    set_flags(g, k, LLVMBuildICmp(g->b, LLVMIntNE, len, LLVMConstInt(g->i64, 0, 0), "copied"));
  }
}

/* ---- stages ----
 * A team's threads meet at every barrier: what one thread does between two barriers never runs beside
 * what another does between two others. Accesses no barrier-free path joins (a stencil's loop, and the
 * loop after its barrier that sets the grid's boundary rows from the rows next to them) are in different
 * stages, and another thread's reads in one stage cannot meet this thread's adjoint updates in another.
 * An object accessed in several stages is noted as one object per stage, and the runtime compares a
 * thread's reads with the others' of the same stage only: the boundary loop, which reads the first and
 * last rows, no longer makes every thread's range the whole grid (all updates atomic, the gradient slower
 * at 2 threads than at 1), and a thread that writes the grid in one stage keeps a private buffer of it in
 * another. Stages are the classes of barrier-free connection between the parts of blocks that barriers
 * (explicit, and those ending worksharing loops) cut: a block's part before its first barrier joins its
 * predecessors' parts after their last. A region's other synchronisation (a single's, a reduction's) is
 * left inside stages: fewer cuts, larger stages, as before. */
static bool is_barrier(LLVMValueRef i) { return ir_is_call(i) && omp_classify(i) == OMP_BARRIER; }

static unsigned stage_find(unsigned *parent, unsigned x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

/* Per block position, the first node of its parts (a part per barrier, plus one); the parts' classes in
 * *parent (union-find). */
static unsigned *stage_parts(RevGen *g, unsigned **parent) {
  size_t nb = g->cfg.blocks.len;
  unsigned *first = xcalloc(nb + 1, sizeof *first), nodes = 0;
  for (size_t b = 0; b < nb; b++) {
    first[b] = nodes++;
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) nodes += is_barrier(i);
  }
  first[nb] = nodes;
  *parent = xcalloc(nodes + 1, sizeof **parent);
  for (unsigned x = 0; x < nodes; x++) (*parent)[x] = x;
  for (size_t b = 0; b < nb; b++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->cfg.blocks.data[b]);
    for (unsigned k = 0, n = t ? LLVMGetNumSuccessors(t) : 0; k < n; k++) {
      int c = cfg_index(&g->cfg, LLVMGetSuccessor(t, k));
      if (c < 0) continue;
      unsigned a = stage_find(*parent, first[b + 1] - 1), d = stage_find(*parent, first[c]);
      if (a != d) (*parent)[a] = d;
    }
  }
  return first;
}

/* The stage of node x: its class's number among those met so far, in order (255 and on: 255, one stage). */
static unsigned char stage_number(unsigned *parent, unsigned x, ValueList *met) {
  void *id = (void *)(size_t)(stage_find(parent, x) + 1);
  for (size_t i = 0; i < met->len; i++)
    if ((void *)met->data[i] == id) return (unsigned char)(i < 255 ? i : 255);
  vec_push(met, (LLVMValueRef)id);
  return (unsigned char)(met->len - 1 < 255 ? met->len - 1 : 255);
}

static int root_index(struct SharedMemory *s, LLVMValueRef r, unsigned char stage, long long field) {
  for (size_t i = 0; i < s->roots.len; i++)
    if (s->roots.data[i] == r && s->stage.data[i] == stage && s->field.data[i] == field) return (int)i;
  return -1;
}

/* Object r's index (of stage and field), added where new; -1 where there are too many. */
static int object_index(struct SharedMemory *s, LLVMValueRef r, unsigned char stage, long long field) {
  int k = root_index(s, r, stage, field);
  if (k >= 0 || s->roots.len == MAX_ROOTS) return k;
  vec_push(&s->roots, r);
  vec_push(&s->stage, stage);
  vec_push(&s->field, field);
  return (int)s->roots.len - 1;
}

static bool same_slots(const RedirectSlot *a, const RedirectSlot *b, unsigned na, unsigned nb) {
  for (unsigned j = 0; j < na && na == nb; j++)
    if (a[j].field != b[j].field || a[j].elem != b[j].elem) return false;
  return na == nb;
}

/* A call of the region's function that passes shared objects, each to a parameter its callee only reads
 * floats through (rev_redirect.c): its objects planned with the others, its pair made to note its reads and
 * add their adjoints as the plan says. False where any shared pointer it passes is not so. */
static bool redirect_call(RevGen *g, LLVMValueRef call, unsigned char stage) {
  struct SharedMemory *s = g->shared;
  CallKind kind = call_classify(call, NULL);
  if (!g->region_body || (kind != CALL_MODULE && kind != CALL_INDIRECT) || ad_call_reaches_active_global(call) ||
      (kind == CALL_MODULE && !rev_call_augmented(g, call))) /* a registered gradient reads out of sight */
    return false;
  /* the callees: the function called, or every function of the module the pointer may hold (one of another
     module's is looked up by a key that names the redirection: the program stops there, as for any
     function with no such derivative) */
  ValueList callees = {0};
  indirect_callees(g->ad, call, &callees);
  bool ok = callees.len > 0;
  for (size_t f = 0; f < callees.len && ok; f++)
    ok = callees.data[f] && !LLVMIsDeclaration(callees.data[f]) && !custom_registered(callees.data[f]);
  struct CallReads c = {.call = call};
  for (unsigned i = 0, n = ir_num_call_args(call); i < n && ok; i++) {
    LLVMValueRef a = LLVMGetArgOperand(call, i), r = root_of(a);
    if (!ir_is_ptr(LLVMTypeOf(a)) || !activity_active(g->act, a) || rev_thread_own(g->ad, a)) continue;
    RedirectSlot slots[MAX_REDIRECTS], other[MAX_REDIRECTS];
    unsigned n = 0, m;
    ok = i < 64 && direct_root(g, r) && !atomic_only_root(g, r);
    for (size_t f = 0; f < callees.len && ok; f++) /* every callee reads the same slots */
      ok = redirect_param_slots(g->ad, ad_body(g->ad, callees.data[f]), i, f ? other : slots, MAX_REDIRECTS - c.n, f ? &m : &n) &&
           (!f || same_slots(slots, other, n, m));
    /* a record's pointers hold the same arrays throughout where the function stores no pointer others see
       (every call given the record reads it only, or the plan gives up) */
    ok = ok && (slots[0].field < 0 || keeps_pointers(g));
    for (unsigned j = 0; j < n && ok; j++) {
      int k = object_index(s, r, stage, slots[j].field < 0 ? CALL_READS : slots[j].field);
      ok = k >= 0;
      c.object[c.n] = (unsigned)k, c.elem[c.n] = slots[j].elem, c.arg[c.n] = a, c.field[c.n++] = slots[j].field;
    }
    c.params |= 1ull << i;
  }
  vec_free(&callees);
  if (!ok) return false;
  vec_push(&s->calls, c);
  vmap_put(&s->call_of, call, (void *)s->calls.len);
  return true;
}

/* ---- bulk copies ----
 * A region's memset or memcpy of shared memory (a loop the optimiser made one of: each thread zeroing its
 * slice of a scratch array before it deposits there) is an access like any other: the bytes it writes are
 * noted as its destination's writes, those it copies as its source's reads (shared_aug_copy), so that the
 * other accesses keep their plan. Its reverse sweep is unchanged: it clears the written bytes' adjoints and
 * adds the copied floats' atomically. Its writes are noted as a store's are: an input the thread copies
 * and also fills through another pointer stops the program, as a store there does (runtime/omp.c). */
static bool bulk_copy(RevGen *g, LLVMValueRef call, unsigned char stage) {
  struct SharedMemory *s = g->shared;
  CallKind kind = call_classify(call, NULL);
  if (!g->region_body || (kind != CALL_MEMSET && kind != CALL_MEMCPY)) return false;
  int object[2] = {-1, -1};
  for (unsigned a = 0; a < (kind == CALL_MEMCPY ? 2u : 1u); a++) {
    LLVMValueRef p = LLVMGetArgOperand(call, a), r = root_of(p);
    if (!activity_active(g->act, p) || rev_thread_own(g->ad, p)) continue;
    if (!direct_root(g, r) || atomic_only_root(g, r)) return false;
    object[a] = object_index(s, r, stage, OWN_ACCESSES);
    if (object[a] < 0) return false;
  }
  if (object[0] >= 0) {
    vmap_put(&s->fills, call, (void *)(size_t)(object[0] + 1));
    vec_push(&s->filled, (unsigned)object[0]);
  }
  if (object[1] >= 0) vmap_put(&s->copies_from, call, (void *)(size_t)(object[1] + 1));
  return true;
}

static struct CallReads *call_reads(RevGen *g, LLVMValueRef call) {
  size_t c1 = g->shared ? (size_t)vmap_get(&g->shared->call_of, call) : 0;
  return c1 ? &g->shared->calls.data[c1 - 1] : NULL;
}

unsigned long long shared_redirected(RevGen *g, LLVMValueRef call) {
  struct CallReads *c = call_reads(g, call);
  return c ? c->params : redirect_nested_params(g, call);
}

void shared_analyse(RevGen *g) {
  if (!g->region_body && !g->task_body) return;
  struct SharedMemory *s = xcalloc(1, sizeof *s);
  s->keeps_pointers = s->pointers_fixed = -1;
  vmap_init(&s->root_of);
  vmap_init(&s->defer_of);
  vmap_init(&s->loop_of);
  vmap_init(&s->monotone);
  vmap_init(&s->flag_of);
  vmap_init(&s->own_of);
  vmap_init(&s->delta_of);
  vmap_init(&s->group_of);
  vmap_init(&s->copy_flag);
  vmap_init(&s->run_word);
  vmap_init(&s->stored_by);
  vmap_init(&s->call_of);
  vmap_init(&s->fills);
  vmap_init(&s->copies_from);
  g->shared = s;
  find_boundaries(g);
  bool ok = true;
  unsigned *parent = NULL, *first_part = g->region_body ? stage_parts(g, &parent) : NULL, part = 0;
  ValueList stages_met = {0};
  for (size_t b = 0; b < g->cfg.blocks.len && ok; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i && ok; i = LLVMGetNextInstruction(i)) {
      if (first_part && !LLVMGetPreviousInstruction(i)) part = first_part[b]; /* the block's first part */
      if (ir_is_call(i)) {
        if (passes_shared(g, i)) {
          unsigned char stage = first_part ? stage_number(parent, part, &stages_met) : 0;
          ok = bulk_copy(g, i, stage) || redirect_call(g, i, stage);
        }
        part += is_barrier(i);
        continue;
      }
      LLVMValueRef p = pointer_operand(i);
      if (!p || rev_thread_private(p) || !activity_shadowed(g->act, p)) continue;
      if (ad_load_through_view(g->act, i)) { /* its shadow may be the sink (ad/constants.h), which no plan covers */
        ok = false;
        break;
      }
      LLVMValueRef r = g->task_body ? task_root_of(g, p) : root_of(p);
      if (g->task_body ? !defined_once(g, r) : !direct_root(g, r)) {
        ok = false;
        break;
      }
      unsigned char stage = first_part ? stage_number(parent, part, &stages_met) : 0;
      int k = object_index(s, r, stage, OWN_ACCESSES);
      if (k < 0) {
        ok = false;
        break;
      }
      vmap_put(&s->root_of, i, (void *)(size_t)(k + 1));
      bool atomic_only = atomic_only_root(g, r);
      /* a region's read in a stencil's short offset loops, or at an address not linear: per run of the loop
         around, where the address is monotone (rev_monotone.c) */
      Loop *l = loop_innermost(g, LLVMGetInstructionParent(i)), *run = NULL;
      bool linear = l && l->exit_iv && loop_linear(g, l, p, 0);
      if (g->region_body && LLVMIsALoadInst(i) && l && (!linear || loop_short_constant(g, l))) run = loop_monotone_run(g, l, p, LLVMGetInstructionParent(i));
      if (run && !holds_boundary(g, run)) {
        vmap_put(&s->loop_of, i, run);
        vmap_put(&s->monotone, i, run);
        vec_push(&s->per_run, i);
      } else if (linear && !holds_boundary(g, l)) {
        vmap_put(&s->loop_of, i, l);
        vec_push(&s->per_run, i);
      } else {
        group(g, s, i, (unsigned)k);
      }
      if (!atomic_only && LLVMIsALoadInst(i) && ir_is_fp(LLVMTypeOf(i)) && invariant_address(p) && defined_once(g, ir_strip_pointer_casts(p))) {
        int d = index_of(&s->deferred, ir_strip_pointer_casts(p));
        if (d < 0 && s->deferred.len < MAX_DEFERRED) {
          d = (int)s->deferred.len;
          vec_push(&s->deferred, ir_strip_pointer_casts(p));
          vec_push(&s->deferred_type, LLVMTypeOf(i));
        }
        if (d >= 0 && s->deferred_type.data[d] == LLVMTypeOf(i)) vmap_put(&s->defer_of, i, (void *)(size_t)(d + 1));
      }
    }
  free(first_part);
  free(parent);
  vec_free(&stages_met);
  if (!ok || !s->roots.len) {
    shared_free(g); /* every shared adjoint atomically */
    return;
  }
  /* objects whose adjoints may be kept apart per thread: all their reads plain reads of one float type */
  s->all_noted = all_writes_noted(g);
  s->elem = xcalloc(s->roots.len, 1);
  s->whole_floats = xcalloc(s->roots.len, sizeof *s->whole_floats);
  bool *mixed = xcalloc(s->roots.len, sizeof *mixed), *misaligned = xcalloc(s->roots.len, sizeof *misaligned);
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      size_t k1 = LLVMIsALoadInst(i) ? (size_t)vmap_get(&s->root_of, i) : 0;
      if (!k1) continue;
      LLVMTypeKind t = LLVMGetTypeKind(ir_scalar_type(LLVMTypeOf(i)));
      unsigned char size = t == LLVMDoubleTypeKind ? 8 : t == LLVMFloatTypeKind ? 4 : 0;
      unsigned char *e = &s->elem[k1 - 1];
      bool vector = LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVectorTypeKind;
      /* a count or a type tag read beside the floats (`i < c->n` over a record's links) takes no adjoint:
         its bytes in a buffer stay zero, and only nonzero floats go into the shadow */
      if ((t == LLVMIntegerTypeKind || t == LLVMPointerTypeKind) && !vector && !activity_varied(g->act, i)) continue;
      if (!size || vector || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic || (*e && *e != size)) mixed[k1 - 1] = true;
      if (LLVMGetAlignment(i) < size) misaligned[k1 - 1] = true;
      *e = size;
    }
  for (size_t c = 0; c < s->calls.len; c++) /* the reads of the calls' callees */
    for (unsigned j = 0; j < s->calls.data[c].n; j++) {
      unsigned k = s->calls.data[c].object[j];
      if (s->elem[k] && s->elem[k] != s->calls.data[c].elem[j]) mixed[k] = true;
      s->elem[k] = s->calls.data[c].elem[j];
    }
  s->atomic_only = xcalloc(s->roots.len, sizeof *s->atomic_only);
  for (size_t k = 0; k < s->roots.len; k++) {
    s->atomic_only[k] = atomic_only_root(g, s->roots.data[k]);
    if (mixed[k] || s->atomic_only[k] || !activity_shadowed(g->act, s->roots.data[k])) s->elem[k] = 0;
    s->whole_floats[k] = s->elem[k] && !misaligned[k];
  }
  free(mixed);
  free(misaligned);
  s->adds = xcalloc(s->roots.len, 1);
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i)) {
      size_t k1 = (size_t)vmap_get(&s->root_of, i);
      if (!k1) continue;
      LLVMValueRef v = LLVMIsALoadInst(i) ? i : LLVMIsAStoreInst(i) ? LLVMGetOperand(i, 0) : LLVMGetOperand(i, 1);
      LLVMTypeRef t = LLVMTypeOf(v); /* floats, or integers that may carry their bits (rev_lanes.c) */
      if (ir_contains_fp(t) ? activity_active(g->act, v) : ir_is_int(t) && activity_varied(g->act, v)) s->adds[k1 - 1] = 1;
    }
  for (size_t c = 0; c < s->calls.len; c++)
    for (unsigned j = 0; j < s->calls.data[c].n; j++) s->adds[s->calls.data[c].object[j]] = 1;
  find_indices(g);
  inputs_analyse(g);
}

void shared_free(RevGen *g) {
  struct SharedMemory *s = g->shared;
  if (!s) return;
  for (size_t k = 0; s->output_stores && k < s->roots.len; k++) vec_free(&s->output_stores[k]);
  vec_free(&s->roots);
  vec_free(&s->stage);
  vec_free(&s->field);
  vec_free(&s->deferred);
  vec_free(&s->deferred_type);
  vmap_free(&s->root_of);
  vmap_free(&s->defer_of);
  vmap_free(&s->loop_of);
  vmap_free(&s->monotone);
  vmap_free(&s->flag_of);
  vmap_free(&s->own_of);
  vmap_free(&s->delta_of);
  vec_free(&s->per_run);
  vec_free(&s->groups);
  vec_free(&s->calls);
  vmap_free(&s->call_of);
  vmap_free(&s->fills);
  vmap_free(&s->copies_from);
  vec_free(&s->filled);
  for (size_t i = 0; i < s->joined.len; i++) {
    vec_free(&s->joined.data[i].bases);
    free(s->joined.data[i].base_at);
  }
  vec_free(&s->joined);
  vmap_free(&s->group_of);
  vec_free(&s->copied);
  vec_free(&s->common);
  vec_free(&s->copy_common);
  vmap_free(&s->copy_flag);
  free(s->input);
  free(s->writes);
  free(s->streamed);
  vmap_free(&s->run_word);
  free(s->out_loop);
  free(s->streamable);
  vmap_free(&s->stored_by);
  free(s->output_stores);
  free(s->output);
  free(s->adds);
  free(s->input_at);
  free(s->copy_lo);
  free(s->copy_len);
  free(s->copy_delta);
  free(s->elem);
  free(s->whole_floats);
  free(s->buffered);
  free(s->atomic_only);
  free(s->pbase);
  free(s->plen);
  free(s->priv);
  free(s->slo);
  free(s->plo);
  free(s->ranges);
  free(s->aperiodic);
  free(s->deferred_at);
  free(s->lo);
  free(s->hi);
  free(s->span);
  free(s->whole);
  free(s->skip_lo);
  free(s->skip_hi);
  free(s->ok);
  free(s->sums);
  free(s->boundary);
  free(s);
  g->shared = NULL;
}

bool shared_decided_per_run(RevGen *g, LLVMValueRef load, Loop *l) {
  struct SharedMemory *s = g->shared;
  size_t k1 = s ? (size_t)vmap_get(&s->root_of, load) : 0;
  if (!k1) return true;
  return !s->atomic_only[k1 - 1] && !vmap_get(&s->defer_of, load) && vmap_get(&s->loop_of, load) == l;
}

/* ---- the forward sweep: ranges ---- */

static LLVMValueRef range_slot(RevGen *g, unsigned k, unsigned which) { return g->shared->ranges[RANGE_FIELDS * k + which]; }

/* The constant number of bytes (units, for an integer) v moves by in one iteration of l, through what
 * `linear` accepts; false where that depends on a value known at run time. Wrapping, not overflowing:
 * a wrong stride only costs the runtime's notes (find_aperiodic). */
static bool step_of(RevGen *g, Loop *l, LLVMValueRef v, unsigned long long *step, int depth) {
  *step = 0;
  if (loop_invariant(g, l, v)) return true;
  int k = loop_iv_index(l, v);
  if (k >= 0) return (*step = (unsigned long long)LLVMConstIntGetSExtValue(l->ivs.data[k].step)), true;
  if (depth > 16 || !LLVMIsAInstruction(v)) return false;
  LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
  unsigned long long x, y;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd: return step_of(g, l, a, &x, depth + 1) && step_of(g, l, b, &y, depth + 1) && ((*step = x + y), true);
  case LLVMSub: return step_of(g, l, a, &x, depth + 1) && step_of(g, l, b, &y, depth + 1) && ((*step = x - y), true);
  case LLVMMul:
    if (LLVMIsAConstantInt(b)) return step_of(g, l, a, &x, depth + 1) && ((*step = x * (unsigned long long)LLVMConstIntGetSExtValue(b)), true);
    if (LLVMIsAConstantInt(a)) return step_of(g, l, b, &x, depth + 1) && ((*step = x * (unsigned long long)LLVMConstIntGetSExtValue(a)), true);
    return false;
  case LLVMShl:
    return LLVMIsAConstantInt(b) && LLVMConstIntGetZExtValue(b) < 64 && step_of(g, l, a, &x, depth + 1) &&
           ((*step = x << LLVMConstIntGetZExtValue(b)), true);
  case LLVMOr: return LLVMGetIsDisjoint(v) && LLVMIsAConstantInt(b) && step_of(g, l, a, step, depth + 1);
  case LLVMSExt:
  case LLVMZExt:
  case LLVMBitCast:
  case LLVMAddrSpaceCast: return step_of(g, l, a, step, depth + 1);
  case LLVMGetElementPtr: {
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(g->ad->mod);
    LLVMTypeRef t = LLVMGetGEPSourceElementType(v);
    if (!step_of(g, l, a, step, depth + 1)) return false;
    for (unsigned i = 1, n = (unsigned)LLVMGetNumOperands(v); i < n; i++) {
      LLVMValueRef idx = LLVMGetOperand(v, i);
      if (i > 1 && LLVMGetTypeKind(t) == LLVMStructTypeKind) {
        t = LLVMStructGetTypeAtIndex(t, (unsigned)LLVMConstIntGetZExtValue(idx));
        continue;
      }
      if (i > 1 && LLVMGetTypeKind(t) != LLVMArrayTypeKind) return false;
      if (i > 1) t = LLVMGetElementType(t);
      if (!LLVMTypeIsSized(t) || !step_of(g, l, idx, &x, depth + 1)) return false;
      *step += x * LLVMABISizeOfType(td, t);
    }
    return true;
  }
  default: return false;
  }
}

/* A run's reads of an object at a constant stride: the bytes [lo, hi) of the period they fall in
 * (hi < 2 stride: a read may wrap around). */
typedef struct {
  size_t object;
  Loop *loop;
  LLVMValueRef anchor;
  long long stride, lo, hi;
} Phase;

static int phase_order(const void *x, const void *y) {
  const Phase *a = x, *b = y;
  if (a->object != b->object) return a->object < b->object ? -1 : 1;
  if (a->loop != b->loop) return (uintptr_t)a->loop < (uintptr_t)b->loop ? -1 : 1;
  if (a->anchor != b->anchor) return (uintptr_t)a->anchor < (uintptr_t)b->anchor ? -1 : 1;
  if (a->stride != b->stride) return a->stride < b->stride ? -1 : 1;
  return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static bool same_period(const Phase *a, const Phase *b) {
  return a->object == b->object && a->loop == b->loop && a->anchor == b->anchor && a->stride == b->stride;
}

/* Whether phases p[0..n), in order of their starts, cover their whole period. */
static bool cover_period(const Phase *p, size_t n) {
  long long stride = p[0].stride, reached = 0;
  for (size_t i = 0; i < n; i++) /* a read that wraps around covers the period's start */
    if (p[i].hi - stride > reached) reached = p[i].hi - stride;
  for (size_t i = 0; i < n && reached < stride; i++)
    if (p[i].lo <= reached && p[i].hi > reached) reached = p[i].hi;
  return reached >= stride;
}

/* Per object, whether it can have no period worth noting (READ_PERIOD): it is read outside runs (a
 * group's reads, a gather's), or a loop's runs read it contiguously (a stride no larger than the read),
 * or at constant offsets from one address, covering every byte of their period (a particle's x, y and
 * z). Noting those runs would cost a division each and tell nothing. */
static bool *find_aperiodic(RevGen *g) {
  struct SharedMemory *s = g->shared;
  bool *aperiodic = xcalloc(s->roots.len, sizeof *aperiodic);
  if (g->task_body) { /* a task's plan has no use for periods (its own part is its dependences') */
    for (size_t k = 0; k < s->roots.len; k++) aperiodic[k] = true;
    return aperiodic;
  }
  for (size_t i = 0; i < s->groups.len; i++)
    if (s->groups.data[i].slot % RANGE_FIELDS == READ_LO) aperiodic[s->groups.data[i].slot / RANGE_FIELDS] = true;
  for (size_t c = 0; c < s->calls.len; c++)
    for (unsigned j = 0; j < s->calls.data[c].n; j++) aperiodic[s->calls.data[c].object[j]] = true;
  VEC(Phase) phases = {0};
  for (size_t i = 0; i < s->per_run.len; i++) {
    LLVMValueRef inst = s->per_run.data[i];
    size_t k = (size_t)vmap_get(&s->root_of, inst) - 1;
    Loop *l = vmap_get(&s->loop_of, inst);
    unsigned long long step;
    if (vmap_get(&s->monotone, inst)) aperiodic[k] = true; /* no stride */
    if (!LLVMIsALoadInst(inst) || !step_of(g, l, pointer_operand(inst), &step, 0)) continue;
    long long stride = (long long)step < 0 ? -(long long)step : (long long)step, off = 0, size = (long long)access_size(g, inst);
    if (stride <= size) {
      aperiodic[k] = true;
      continue;
    }
    LLVMValueRef anchor = ir_strip_constant_offsets(g->ad->mod, pointer_operand(inst), &off);
    long long lo = (off % stride + stride) % stride;
    vec_push(&phases, ((Phase){k, l, anchor, stride, lo, lo + size}));
  }
  if (phases.len) qsort(phases.data, phases.len, sizeof *phases.data, phase_order);
  for (size_t i = 0, j; i < phases.len; i = j) {
    for (j = i + 1; j < phases.len && same_period(&phases.data[i], &phases.data[j]); j++) continue;
    if (cover_period(&phases.data[i], j - i)) aperiodic[phases.data[i].object] = true;
  }
  vec_free(&phases);
  return aperiodic;
}

/* No run of gr's index array noted yet (the runtime notes nothing for the empty one). */
static void clear_index_run(RevGen *g, struct Group *gr) {
  LLVMValueRef slots[3] = {gr->run_lo, gr->run_hi, gr->base_at};
  for (int k = 0; k < 3; k++) LLVMBuildStore(g->b, LLVMConstInt(g->i64, 0, 0), slots[k]);
}

static void find_joined(RevGen *g);

void shared_aug_entry(RevGen *g) {
  struct SharedMemory *s = g->shared;
  if (!s) return;
  free(s->ranges);
  s->ranges = xcalloc(RANGE_FIELDS * s->roots.len, sizeof *s->ranges);
  free(s->aperiodic);
  bool *aperiodic = s->aperiodic = find_aperiodic(g);
  for (unsigned k = 0; k < RANGE_FIELDS * s->roots.len; k++) {
    unsigned field = k % RANGE_FIELDS;
    bool ones = field == READ_LO || field == WRITTEN_LO || field == PHASE_LO || (field == READ_PERIOD && aperiodic[k / RANGE_FIELDS]);
    s->ranges[k] = LLVMBuildAlloca(g->b, g->i64, "range");
    LLVMBuildStore(g->b, LLVMConstInt(g->i64, ones ? ~0ull : 0, 0), s->ranges[k]);
  }
  s->chunk_ranges = s->chunked ? LLVMBuildArrayAlloca(g->b, g->i64, LLVMConstInt(g->i64, RANGE_FIELDS * s->roots.len, 0), "chunk.ranges") : NULL;
  s->index_out = NULL;
  for (size_t i = 0; i < s->groups.len; i++) {
    struct Group *gr = &s->groups.data[i];
    if (!gr->index) continue;
    if (!s->index_out) s->index_out = LLVMBuildAlloca(g->b, LLVMArrayType2(g->i64, 2), "index.span");
    gr->run_lo = LLVMBuildAlloca(g->b, g->i64, "index.run.lo");
    gr->run_hi = LLVMBuildAlloca(g->b, g->i64, "index.run.hi");
    gr->base_at = LLVMBuildAlloca(g->b, g->i64, "index.base");
    clear_index_run(g, gr);
  }
  find_joined(g);
  if (s->copied.len) {
    free(s->input_at);
    s->input_at = xcalloc(s->roots.len, sizeof *s->input_at);
    LLVMTypeRef pair = LLVMArrayType2(g->i64, 2);
    for (size_t k = 0; k < s->roots.len; k++) {
      if (!(s->input[k] || (s->output && s->output[k])) || !copy_needed(g, k)) continue;
      s->input_at[k] = LLVMBuildAlloca(g->b, pair, "input");
      LLVMBuildStore(g->b, LLVMConstNull(pair), s->input_at[k]);
    }
    copy_flags(g);
  }
  /* an address read throughout may be computed in a block that does not dominate the return (behind a
     loop's zero-trip guard): it is kept in a slot from its block on */
  free(s->deferred_at);
  s->deferred_at = xcalloc(s->deferred.len + 1, sizeof *s->deferred_at);
  for (size_t d = 0; d < s->deferred.len; d++) {
    if (!LLVMIsAInstruction(s->deferred.data[d])) continue;
    s->deferred_at[d] = LLVMBuildAlloca(g->b, g->i64, "deferred.at");
    LLVMBuildStore(g->b, LLVMConstInt(g->i64, 0, 0), s->deferred_at[d]);
  }
}

void rev_widen(RevGen *g, LLVMValueRef slot, LLVMValueRef v, const char *minmax) {
  LLVMValueRef old = LLVMBuildLoad2(g->b, g->i64, slot, "");
  LLVMValueRef args[2] = {old, v};
  LLVMBuildStore(g->b, ir_call_intrinsic(g->b, minmax, &g->i64, 1, args, 2), slot);
}

static void note(RevGen *g, LLVMValueRef inst, LLVMValueRef lo, LLVMValueRef hi) {
  unsigned k = (unsigned)((size_t)vmap_get(&g->shared->root_of, inst) - 1), which = LLVMIsALoadInst(inst) ? READ_LO : WRITTEN_LO;
  rev_widen(g, range_slot(g, k, which), lo, "llvm.umin");
  rev_widen(g, range_slot(g, k, which + 1), hi, "llvm.umax");
}

/* The distance from object k to its shadow, for adding a private buffer into it, where the object is at
 * hand (where an access to it is noted). */
static void note_shadow_delta(RevGen *g, unsigned k) {
  LLVMValueRef root = g->shared->roots.data[k], shadow = vmap_get(&g->smap, root);
  if (!shadow && global_array_with_shadow(root)) shadow = ad_global_shadow(root, SHADOW_ADD);
  if (!g->shared->elem[k] || !shadow) return;
  LLVMValueRef delta = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, shadow, g->i64, ""),
                                    LLVMBuildPtrToInt(g->b, aug_value(g, root), g->i64, ""), "");
  LLVMBuildStore(g->b, delta, range_slot(g, k, SHADOW_DELTA));
}

/* A redirected call's reads: the callee's slots cleared before it, their hulls noted after. */
void shared_aug_call(RevGen *g, LLVMValueRef call, bool after) {
  struct CallReads *c = call_reads(g, call);
  for (unsigned j = 0; c && j < c->n; j++) {
    if (!after) {
      redirect_clear(g, j);
      continue;
    }
    unsigned k = c->object[j];
    rev_widen(g, range_slot(g, k, READ_LO), LLVMBuildLoad2(g->b, g->i64, redirect_field(g, j, REDIRECT_LO), ""), "llvm.umin");
    rev_widen(g, range_slot(g, k, READ_HI), LLVMBuildLoad2(g->b, g->i64, redirect_field(g, j, REDIRECT_HI), ""), "llvm.umax");
    if (c->field[j] < 0) {
      note_shadow_delta(g, k);
      continue;
    }
    /* a record's array: the distance from the pointer the record holds to the one its shadow holds */
    LLVMValueRef off = LLVMConstInt(g->i64, (unsigned long long)c->field[j], 1);
    LLVMTypeRef byte = LLVMInt8TypeInContext(g->ctx);
    LLVMValueRef p = LLVMBuildLoad2(g->b, g->ptr_type, LLVMBuildGEP2(g->b, byte, aug_value(g, c->arg[j]), &off, 1, ""), "");
    LLVMValueRef sp = LLVMBuildLoad2(g->b, g->ptr_type, LLVMBuildGEP2(g->b, byte, aug_shadow(g, c->arg[j], call, "this call"), &off, 1, ""), "");
    LLVMBuildStore(g->b, LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, sp, g->i64, ""), LLVMBuildPtrToInt(g->b, p, g->i64, ""), ""),
                   range_slot(g, k, SHADOW_DELTA));
  }
  redirect_aug_call(g, call, after); /* a redirected pair's call handing an address on */
}

/* A bulk copy's bytes, noted as it is made (see "bulk copies"). */
void shared_aug_copy(RevGen *g, LLVMValueRef call) {
  struct SharedMemory *s = g->shared;
  size_t object[2] = {s ? (size_t)vmap_get(&s->fills, call) : 0, s ? (size_t)vmap_get(&s->copies_from, call) : 0};
  if (!object[0] && !object[1]) return;
  LLVMValueRef n = LLVMBuildZExtOrBitCast(g->b, aug_value(g, LLVMGetArgOperand(call, 2)), g->i64, "");
  for (unsigned a = 0; a < 2; a++) {
    if (!object[a]) continue;
    unsigned k = (unsigned)object[a] - 1, which = a ? READ_LO : WRITTEN_LO;
    LLVMValueRef lo = LLVMBuildPtrToInt(g->b, aug_value(g, LLVMGetArgOperand(call, a)), g->i64, "");
    rev_widen(g, range_slot(g, k, which), lo, "llvm.umin");
    rev_widen(g, range_slot(g, k, which + 1), LLVMBuildAdd(g->b, lo, n, ""), "llvm.umax");
    note_shadow_delta(g, k);
  }
}

/* The block's groups, at its end (anchors are defined before the accesses, so there too). */
static void note_groups(RevGen *g, LLVMBasicBlockRef bb) {
  struct SharedMemory *s = g->shared;
  for (size_t i = 0; i < s->groups.len; i++) {
    struct Group *gr = &s->groups.data[i];
    if (gr->block != bb || gr->index) continue;
    LLVMValueRef at = LLVMBuildPtrToInt(g->b, aug_value(g, gr->anchor), g->i64, "");
    rev_widen(g, s->ranges[gr->slot], LLVMBuildAdd(g->b, at, LLVMConstInt(g->i64, (unsigned long long)gr->lo, 1), ""), "llvm.umin");
    rev_widen(g, s->ranges[gr->slot + 1], LLVMBuildAdd(g->b, at, LLVMConstInt(g->i64, (unsigned long long)gr->hi, 1), ""), "llvm.umax");
    note_shadow_delta(g, gr->slot / RANGE_FIELDS);
  }
}

/* The range of gather gr's reads through the index array's elements [lo, hi), into its object's range. */
static void note_index_run(RevGen *g, struct Group *gr, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef base) {
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
  LLVMValueRef args[10] = {lo,
                           hi,
                           LLVMConstInt(i32, access_size(g, gr->index), 0),
                           LLVMConstInt(i32, gr->is_signed, 0),
                           base,
                           LLVMConstInt(g->i64, (unsigned long long)gr->scale, 1),
                           LLVMConstInt(g->i64, (unsigned long long)gr->lo, 1),
                           LLVMConstInt(g->i64, (unsigned long long)gr->hi, 1),
                           g->shared->index_out,
                           LLVMConstInt(i32, (unsigned long long)((long long)gr->number - 1), 1)};
  LLVMTypeRef params[10] = {g->i64, g->i64, i32, i32, g->i64, g->i64, g->i64, g->i64, g->ptr_type, i32};
  ir_call_named(g->b, "__parad_rt_index_span", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 10, 0), args, 10);
  LLVMValueRef one = LLVMConstInt(g->i64, 1, 0);
  LLVMValueRef span_hi = LLVMBuildGEP2(g->b, g->i64, g->shared->index_out, &one, 1, "");
  rev_widen(g, g->shared->ranges[gr->slot], LLVMBuildLoad2(g->b, g->i64, g->shared->index_out, ""), "llvm.umin");
  rev_widen(g, g->shared->ranges[gr->slot + 1], LLVMBuildLoad2(g->b, g->i64, span_hi, ""), "llvm.umax");
}

/* Gather gr's index array read in this run of its loop at [lo, hi): joined to the run noted so far where
 * it continues it (either way: one comparison per run, where a CSR matrix's rows follow each other), else
 * that run is noted and this one starts again (the first run too: the runtime notes nothing for the empty
 * one before it). */
static void continue_index_run(RevGen *g, struct Group *gr, LLVMValueRef lo, LLVMValueRef hi) {
  LLVMValueRef run_lo = LLVMBuildLoad2(g->b, g->i64, gr->run_lo, ""), run_hi = LLVMBuildLoad2(g->b, g->i64, gr->run_hi, "");
  LLVMBasicBlockRef up, other, join, down, broken, join2;
  rev_diamond(g, LLVMBuildICmp(g->b, LLVMIntEQ, lo, run_hi, ""), &up, &other, &join);
  LLVMPositionBuilderAtEnd(g->b, up);
  LLVMBuildStore(g->b, hi, gr->run_hi);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, other);
  rev_diamond(g, LLVMBuildICmp(g->b, LLVMIntEQ, hi, run_lo, ""), &down, &broken, &join2);
  LLVMPositionBuilderAtEnd(g->b, down);
  LLVMBuildStore(g->b, lo, gr->run_lo);
  LLVMBuildBr(g->b, join2);
  LLVMPositionBuilderAtEnd(g->b, broken);
  LLVMValueRef base = LLVMBuildPtrToInt(g->b, aug_value(g, gr->base), g->i64, "");
  note_index_run(g, gr, run_lo, run_hi, base);
  LLVMBuildStore(g->b, lo, gr->run_lo);
  LLVMBuildStore(g->b, hi, gr->run_hi);
  LLVMBuildStore(g->b, base, gr->base_at);
  note_shadow_delta(g, gr->slot / RANGE_FIELDS);
  LLVMBuildBr(g->b, join2);
  LLVMPositionBuilderAtEnd(g->b, join2);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
}

/* The first and last iterations of the run of a loop about to start, in the forward sweep: computed for
 * the first address that needs them. */
typedef struct {
  LLVMValueRef trip, *first, *last, *second;
} RunEnds;

static void run_ends(RevGen *g, Loop *l, RunEnds *e) {
  if (e->trip) return;
  e->trip = loop_trip(g, l, aug_value);
  e->first = xcalloc(l->ivs.len, sizeof *e->first), e->last = xcalloc(l->ivs.len, sizeof *e->last);
  loop_first_and_last(g, l, e->trip, e->first, e->last, aug_value);
}

/* The bytes [lo, hi) a per-run access covers in a run of l whose counters go from first to last. */
static void access_span(RevGen *g, Loop *l, LLVMValueRef inst, LLVMValueRef *first, LLVMValueRef *last,
                        LLVMValueRef (*value)(RevGen *, LLVMValueRef), LLVMValueRef *lo, LLVMValueRef *hi) {
  LLVMValueRef p = pointer_operand(inst);
  if (vmap_get(&g->shared->monotone, inst)) {
    loop_monotone_span(g, l, p, access_size(g, inst), first, last, value, lo, hi);
    return;
  }
  address_span(g, loop_evaluate(g, l, p, first, value), loop_evaluate(g, l, p, last, value), access_size(g, inst), lo, hi);
}

/* The bytes [lo, hi) address p (of accesses of `size` bytes) covers in the run. */
static void run_span(RevGen *g, Loop *l, RunEnds *e, LLVMValueRef p, unsigned size, LLVMValueRef *lo, LLVMValueRef *hi) {
  run_ends(g, l, e);
  address_span(g, loop_evaluate(g, l, p, e->first, aug_value), loop_evaluate(g, l, p, e->last, aug_value), size, lo, hi);
}

/* A read of object k at p in every iteration of the run, into the object's period (READ_PERIOD): the
 * stride is the distance between the first two iterations' addresses, frozen (a run of one iteration has
 * no second, and its address may be poison: any period then holds the one address read). An address
 * below the object's (a negative offset) falls in no period counted from it: no period. */
static void note_phase(RevGen *g, Loop *l, RunEnds *e, LLVMValueRef p, unsigned size, unsigned k) {
  if (!e->second) {
    e->second = xcalloc(l->ivs.len, sizeof *e->second);
    for (size_t i = 0; i < l->ivs.len; i++) e->second[i] = LLVMBuildAdd(g->b, e->first[i], l->ivs.data[i].step, "");
  }
  LLVMValueRef a = LLVMBuildPtrToInt(g->b, loop_evaluate(g, l, p, e->first, aug_value), g->i64, "");
  LLVMValueRef b = LLVMBuildPtrToInt(g->b, loop_evaluate(g, l, p, e->second, aug_value), g->i64, "");
  LLVMValueRef args[2] = {LLVMBuildFreeze(g->b, LLVMBuildSub(g->b, b, a, ""), ""), LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 0, 0)};
  LLVMValueRef stride = ir_call_intrinsic(g->b, "llvm.abs", &g->i64, 1, args, 2);
  LLVMValueRef zero = LLVMConstInt(g->i64, 0, 0), ones = LLVMConstInt(g->i64, ~0ull, 0);
  LLVMValueRef nonzero = LLVMBuildICmp(g->b, LLVMIntNE, stride, zero, "");
  LLVMValueRef origin = LLVMBuildPtrToInt(g->b, aug_value(g, g->shared->roots.data[k]), g->i64, "");
  LLVMBuildStore(g->b, origin, range_slot(g, k, PHASE_ORIGIN));
  LLVMValueRef phase = LLVMBuildURem(g->b, LLVMBuildSub(g->b, a, origin, ""), LLVMBuildSelect(g->b, nonzero, stride, LLVMConstInt(g->i64, 1, 0), ""), "phase");
  LLVMValueRef end = LLVMBuildAdd(g->b, phase, LLVMConstInt(g->i64, size, 0), "");
  LLVMValueRef fits = LLVMBuildAnd(g->b, LLVMBuildAnd(g->b, nonzero, LLVMBuildICmp(g->b, LLVMIntUGE, a, origin, ""), ""),
                                   LLVMBuildICmp(g->b, LLVMIntULE, end, stride, ""), "");
  LLVMValueRef period = LLVMBuildLoad2(g->b, g->i64, range_slot(g, k, READ_PERIOD), "");
  LLVMValueRef same = LLVMBuildOr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, period, zero, ""),
                                  LLVMBuildICmp(g->b, LLVMIntEQ, period, stride, ""), "");
  LLVMBuildStore(g->b, LLVMBuildSelect(g->b, LLVMBuildAnd(g->b, fits, same, ""), stride, ones, ""), range_slot(g, k, READ_PERIOD));
  rev_widen(g, range_slot(g, k, PHASE_LO), phase, "llvm.umin");
  rev_widen(g, range_slot(g, k, PHASE_HI), end, "llvm.umax");
}

/* The distances to their shadows of the objects l's accesses noted per run reach, once per object. */
static void note_run_deltas(RevGen *g, Loop *l) {
  struct SharedMemory *s = g->shared;
  bool *noted = xcalloc(s->roots.len, sizeof *noted);
  for (size_t k = 0; k < s->per_run.len; k++) {
    LLVMValueRef inst = s->per_run.data[k];
    unsigned object = (unsigned)((size_t)vmap_get(&s->root_of, inst) - 1);
    if (vmap_get(&s->loop_of, inst) != l || noted[object]) continue;
    note_shadow_delta(g, object);
    noted[object] = true;
  }
  free(noted);
}

/* ---- joined runs ----
 * A loop that runs many times per call, each run reading consecutive elements of arrays the function
 * computes the addresses of once (a CSR matrix's row: val[k] and col[k] for k from rowptr[i] to
 * rowptr[i + 1]), has its runs joined while each starts where the last one ended (or ends where it
 * started): the forward sweep keeps the joined run's counters, at one comparison per run, and notes its
 * accesses' ranges and its index arrays' runs only as it breaks off and as the function returns or a
 * chunk starts. The ranges noted are those of the runs, noted one by one; the addresses a run's first and
 * last iterations reach, their bounds and their merge into the object's range cost, per row of cg's
 * product, as much again as the row's own loads and multiply-adds. */

static struct Joined *joined_of(RevGen *g, Loop *l) {
  struct SharedMemory *s = g->shared;
  for (size_t i = 0; i < s->joined.len; i++)
    if (s->joined.data[i].l == l) return &s->joined.data[i];
  return NULL;
}

/* Whether address p, of an access of `size` bytes, is base[iv + c] for a counter iv of l stepping by 1 or
 * -1 and a constant c (in the counter's width, as the address widens it): its base, counter and c. */
static bool counter_element(RevGen *g, Loop *l, LLVMValueRef p, unsigned size, LLVMValueRef *base, int *iv, long long *c,
                            bool *is_signed) {
  LLVMValueRef i;
  if (element_index(g, p, &i) != size) return false;
  LLVMValueRef v = strip_extension(i, is_signed);
  *c = 0;
  if (loop_iv_index(l, v) < 0 && LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMAdd &&
      LLVMIsAConstantInt(LLVMGetOperand(v, 1)) && LLVMGetIntTypeWidth(LLVMTypeOf(v)) <= 64 &&
      (LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64 || (*is_signed ? LLVMGetNSW(v) : LLVMGetNUW(v)))) {
    *c = LLVMConstIntGetSExtValue(LLVMGetOperand(v, 1));
    v = LLVMGetOperand(v, 0);
    if (*c < 0 && !*is_signed) return false; /* widened unsigned: iv + c is not zext(iv) + c */
  }
  *iv = loop_iv_index(l, v);
  *base = LLVMGetOperand(p, 0);
  if (*iv < 0 || LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64) return false;
  long long step = LLVMConstIntGetSExtValue(l->ivs.data[*iv].step);
  return step == 1 || step == -1;
}

/* Whether access p is such an element of an array the function computes the address of once, at the
 * counter (and widening) of the loop's other accesses; its base joins j's. */
static bool joins(RevGen *g, struct Joined *j, LLVMValueRef p, unsigned size) {
  LLVMValueRef base;
  int k;
  long long c;
  bool is_signed;
  if (!counter_element(g, j->l, p, size, &base, &k, &c, &is_signed) || !defined_once(g, base)) return false;
  if (j->bases.len && ((unsigned)k != j->iv || is_signed != j->is_signed)) return false;
  j->iv = (unsigned)k, j->is_signed = is_signed;
  if (index_of(&j->bases, base) < 0) vec_push(&j->bases, base);
  return true;
}

/* Whether l's runs are joined: l runs inside another loop, and every access noted per run of l and every
 * index array its gathers read is such an element (loads with no period to note: READ_PERIOD). */
static bool joinable(RevGen *g, Loop *l, struct Joined *j) {
  struct SharedMemory *s = g->shared;
  bool nested = false, any = false;
  for (size_t i = 0; i < g->loops.len && !nested; i++)
    nested = &g->loops.data[i] != l && in_loop(g, &g->loops.data[i], l->header);
  if (!nested || !l->exit_iv || holds_boundary(g, l)) return false;
  j->l = l;
  for (size_t k = 0; k < s->per_run.len; k++) {
    LLVMValueRef inst = s->per_run.data[k];
    if (vmap_get(&s->loop_of, inst) != l) continue;
    unsigned object = (unsigned)((size_t)vmap_get(&s->root_of, inst) - 1);
    if ((LLVMIsALoadInst(inst) && !s->aperiodic[object]) || vmap_get(&s->monotone, inst) ||
        !joins(g, j, pointer_operand(inst), access_size(g, inst)))
      return false;
    any = true;
  }
  for (size_t i = 0; i < s->groups.len; i++) {
    struct Group *gr = &s->groups.data[i];
    if (!gr->index || gr->loop != l) continue;
    if (!joins(g, j, gr->walk, gr->walk_size)) return false;
    if (index_of(&j->bases, gr->base) < 0) vec_push(&j->bases, gr->base);
    any = true;
  }
  return any;
}

static void find_joined(RevGen *g) {
  struct SharedMemory *s = g->shared;
  for (size_t i = 0; i < s->joined.len; i++) {
    vec_free(&s->joined.data[i].bases);
    free(s->joined.data[i].base_at);
  }
  s->joined.len = 0;
  for (size_t i = 0; i < g->loops.len; i++) {
    struct Joined j = {0};
    if (!joinable(g, &g->loops.data[i], &j)) {
      vec_free(&j.bases);
      continue;
    }
    j.lo = LLVMBuildAlloca(g->b, g->i64, "joined.lo");
    j.hi = LLVMBuildAlloca(g->b, g->i64, "joined.hi");
    LLVMBuildStore(g->b, LLVMConstInt(g->i64, (unsigned long long)INT64_MAX, 0), j.lo);
    LLVMBuildStore(g->b, LLVMConstInt(g->i64, (unsigned long long)INT64_MIN, 0), j.hi);
    j.base_at = xcalloc(j.bases.len, sizeof *j.base_at);
    for (size_t b = 0; b < j.bases.len; b++) {
      j.base_at[b] = LLVMBuildAlloca(g->b, g->i64, "joined.base");
      LLVMBuildStore(g->b, LLVMGetPoison(g->i64), j.base_at[b]); /* stored as each joined run starts */
    }
    vec_push(&s->joined, j);
  }
}

static LLVMValueRef joined_base(RevGen *g, struct Joined *j, LLVMValueRef base) {
  return LLVMBuildLoad2(g->b, g->i64, j->base_at[index_of(&j->bases, base)], "");
}

/* The bytes [lo, hi) access p (of `size` bytes, a joined one) covers while j's counter goes over [first, last]. */
static void joined_span(RevGen *g, struct Joined *j, LLVMValueRef p, unsigned size, LLVMValueRef first, LLVMValueRef last,
                        LLVMValueRef *lo, LLVMValueRef *hi) {
  LLVMValueRef base;
  int k;
  long long c;
  bool is_signed;
  counter_element(g, j->l, p, size, &base, &k, &c, &is_signed);
  LLVMValueRef at = joined_base(g, j, base), n = LLVMConstInt(g->i64, size, 0);
  LLVMValueRef from = LLVMBuildAdd(g->b, first, LLVMConstInt(g->i64, (unsigned long long)c, 1), "");
  LLVMValueRef to = LLVMBuildAdd(g->b, last, LLVMConstInt(g->i64, (unsigned long long)c + 1, 1), "");
  *lo = LLVMBuildAdd(g->b, at, LLVMBuildMul(g->b, from, n, ""), "");
  *hi = LLVMBuildAdd(g->b, at, LLVMBuildMul(g->b, to, n, ""), "");
}

/* The joined run [lo, hi] of j's counter (nothing where it is empty) noted as one run: its accesses'
 * ranges, its index arrays' runs. */
static void note_joined(RevGen *g, struct Joined *j, LLVMValueRef lo, LLVMValueRef hi) {
  struct SharedMemory *s = g->shared;
  LLVMBasicBlockRef yes, no, join;
  rev_diamond(g, LLVMBuildICmp(g->b, LLVMIntSLE, lo, hi, ""), &yes, &no, &join);
  LLVMPositionBuilderAtEnd(g->b, no);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, yes);
  for (size_t k = 0; k < s->per_run.len; k++) {
    LLVMValueRef inst = s->per_run.data[k], alo, ahi;
    if (vmap_get(&s->loop_of, inst) != j->l) continue;
    joined_span(g, j, pointer_operand(inst), access_size(g, inst), lo, hi, &alo, &ahi);
    note(g, inst, alo, ahi);
  }
  for (size_t i = 0; i < s->groups.len; i++) {
    struct Group *gr = &s->groups.data[i];
    LLVMValueRef alo, ahi;
    if (!gr->index || gr->loop != j->l) continue;
    joined_span(g, j, gr->walk, gr->walk_size, lo, hi, &alo, &ahi);
    note_index_run(g, gr, alo, ahi, joined_base(g, j, gr->base));
  }
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
}

/* As the function returns, or a chunk starts: the joined runs not noted yet (the chunk's: from empty). */
static void note_last_joined(RevGen *g, bool restart) {
  struct SharedMemory *s = g->shared;
  for (size_t i = 0; i < s->joined.len; i++) {
    struct Joined *j = &s->joined.data[i];
    note_joined(g, j, LLVMBuildLoad2(g->b, g->i64, j->lo, ""), LLVMBuildLoad2(g->b, g->i64, j->hi, ""));
    if (!restart) continue;
    LLVMBuildStore(g->b, LLVMConstInt(g->i64, (unsigned long long)INT64_MAX, 0), j->lo);
    LLVMBuildStore(g->b, LLVMConstInt(g->i64, (unsigned long long)INT64_MIN, 0), j->hi);
  }
}

static LLVMValueRef widened(RevGen *g, struct Joined *j, LLVMValueRef v) {
  if (LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64) return v;
  return j->is_signed ? LLVMBuildSExt(g->b, v, g->i64, "") : LLVMBuildZExt(g->b, v, g->i64, "");
}

/* As a run of j's loop starts: joined to the run so far where it continues it, else that run is noted and
 * this one starts again, with its objects' distances to their shadows (values the loop has at hand, which
 * the function's exit may not). A counter near the ends of 64 bits could join the empty run: no access
 * reaches memory there. */
static void join_run(RevGen *g, struct Joined *j, RunEnds *e) {
  struct SharedMemory *s = g->shared;
  run_ends(g, j->l, e);
  LLVMValueRef first = widened(g, j, e->first[j->iv]), last = widened(g, j, e->last[j->iv]);
  bool up = LLVMConstIntGetSExtValue(j->l->ivs.data[j->iv].step) > 0;
  LLVMValueRef nlo = up ? first : last, nhi = up ? last : first, one = LLVMConstInt(g->i64, 1, 0);
  LLVMValueRef lo = LLVMBuildLoad2(g->b, g->i64, j->lo, ""), hi = LLVMBuildLoad2(g->b, g->i64, j->hi, "");
  LLVMBasicBlockRef above, other, join, below, broken, join2;
  rev_diamond(g, LLVMBuildICmp(g->b, LLVMIntEQ, nlo, LLVMBuildAdd(g->b, hi, one, ""), ""), &above, &other, &join);
  LLVMPositionBuilderAtEnd(g->b, above);
  LLVMBuildStore(g->b, nhi, j->hi);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, other);
  rev_diamond(g, LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAdd(g->b, nhi, one, ""), lo, ""), &below, &broken, &join2);
  LLVMPositionBuilderAtEnd(g->b, below);
  LLVMBuildStore(g->b, nlo, j->lo);
  LLVMBuildBr(g->b, join2);
  LLVMPositionBuilderAtEnd(g->b, broken);
  note_joined(g, j, lo, hi);
  for (size_t b = 0; b < j->bases.len; b++)
    LLVMBuildStore(g->b, LLVMBuildPtrToInt(g->b, aug_value(g, j->bases.data[b]), g->i64, ""), j->base_at[b]);
  LLVMBuildStore(g->b, nlo, j->lo);
  LLVMBuildStore(g->b, nhi, j->hi);
  note_run_deltas(g, j->l);
  for (size_t i = 0; i < s->groups.len; i++)
    if (s->groups.data[i].index && s->groups.data[i].loop == j->l) note_shadow_delta(g, s->groups.data[i].slot / RANGE_FIELDS);
  LLVMBuildBr(g->b, join2);
  LLVMPositionBuilderAtEnd(g->b, join2);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
}

/* As l's run starts: the runs of the index arrays its gathers read, the addresses its per-run accesses
 * cover, and their objects' distances to the shadows (once per object and run, not per access). */
static void note_run(RevGen *g, Loop *l) {
  struct SharedMemory *s = g->shared;
  RunEnds ends = {0};
  struct Joined *j = joined_of(g, l);
  if (j) {
    join_run(g, j, &ends);
    free(ends.first);
    free(ends.last);
    return;
  }
  for (size_t i = 0; i < s->groups.len; i++) {
    struct Group *gr = &s->groups.data[i];
    if (!gr->index || gr->loop != l) continue;
    LLVMValueRef lo, hi;
    run_span(g, l, &ends, gr->walk, gr->walk_size, &lo, &hi);
    continue_index_run(g, gr, lo, hi);
  }
  for (size_t k = 0; k < s->per_run.len; k++) {
    LLVMValueRef inst = s->per_run.data[k], lo, hi;
    if (vmap_get(&s->loop_of, inst) != l) continue;
    run_ends(g, l, &ends);
    access_span(g, l, inst, ends.first, ends.last, aug_value, &lo, &hi);
    note(g, inst, lo, hi);
    unsigned object = (unsigned)((size_t)vmap_get(&s->root_of, inst) - 1);
    if (LLVMIsALoadInst(inst) && !s->aperiodic[object]) note_phase(g, l, &ends, pointer_operand(inst), access_size(g, inst), object);
  }
  note_run_deltas(g, l);
  free(ends.first);
  free(ends.last);
  free(ends.second);
}

/* As the function returns, or a chunk starts: the runs of index arrays not noted yet. */
static void note_last_index_runs(RevGen *g) {
  struct SharedMemory *s = g->shared;
  for (size_t i = 0; i < s->groups.len; i++) {
    struct Group *gr = &s->groups.data[i];
    if (!gr->index || joined_of(g, gr->loop)) continue;
    LLVMValueRef lo = LLVMBuildLoad2(g->b, g->i64, gr->run_lo, ""), hi = LLVMBuildLoad2(g->b, g->i64, gr->run_hi, "");
    note_index_run(g, gr, lo, hi, LLVMBuildLoad2(g->b, g->i64, gr->base_at, ""));
  }
}

/* The ranges noted so far, RANGE_FIELDS per object, into an array for the runtime (NULL: a new one). */
static LLVMValueRef ranges_array(RevGen *g, LLVMValueRef ranges) {
  struct SharedMemory *s = g->shared;
  unsigned n = RANGE_FIELDS * (unsigned)s->roots.len;
  if (!ranges) ranges = LLVMBuildArrayAlloca(g->b, g->i64, LLVMConstInt(g->i64, n, 0), "ranges");
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef idx = LLVMConstInt(g->i64, k, 0);
    LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->i64, s->ranges[k], ""), LLVMBuildGEP2(g->b, g->i64, ranges, &idx, 1, ""));
  }
  return ranges;
}

void shared_aug_chunk_start(RevGen *g, LLVMBasicBlockRef bb) {
  struct SharedMemory *s = g->shared;
  if (!s || !s->boundary || !s->boundary[cfg_index(&g->cfg, bb)]) return;
  note_last_index_runs(g);
  note_last_joined(g, true);
  for (size_t i = 0; i < s->groups.len; i++)
    if (s->groups.data[i].index) clear_index_run(g, &s->groups.data[i]);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
  LLVMValueRef args[2] = {LLVMConstInt(i32, s->roots.len, 0), ranges_array(g, s->chunk_ranges)};
  LLVMTypeRef params[2] = {i32, g->ptr_type};
  ir_call_named(g->b, "__parad_rt_shared_chunk", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 2, 0), args, 2);
  for (size_t k = 0; k < s->roots.len; k++) {
    LLVMBuildStore(g->b, LLVMConstInt(g->i64, ~0ull, 0), range_slot(g, (unsigned)k, READ_LO));
    LLVMBuildStore(g->b, LLVMConstInt(g->i64, 0, 0), range_slot(g, (unsigned)k, READ_HI));
  }
}

void shared_aug_after_block(RevGen *g, LLVMBasicBlockRef bb) {
  struct SharedMemory *s = g->shared;
  if (!s) return;
  note_groups(g, bb);
  for (size_t d = 0; d < s->deferred.len; d++)
    if (s->deferred_at[d] && LLVMGetInstructionParent(s->deferred.data[d]) == bb)
      LLVMBuildStore(g->b, LLVMBuildPtrToInt(g->b, aug_value(g, s->deferred.data[d]), g->i64, ""), s->deferred_at[d]);
  for (size_t i = 0; i < g->loops.len; i++)
    if (g->loops.data[i].preheader == bb && g->loops.data[i].exit_iv) note_run(g, &g->loops.data[i]);
}

/* A byte per object, from `bytes`, in an array on the stack for the runtime. */
static LLVMValueRef object_bytes(RevGen *g, const unsigned char *bytes, const char *name) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(g->ctx);
  size_t n = g->shared->roots.len;
  LLVMValueRef array = LLVMBuildArrayAlloca(g->b, i8, LLVMConstInt(g->i64, n, 0), name);
  for (size_t k = 0; k < n; k++) {
    LLVMValueRef idx = LLVMConstInt(g->i64, k, 0);
    LLVMBuildStore(g->b, LLVMConstInt(i8, bytes[k], 0), LLVMBuildGEP2(g->b, i8, array, &idx, 1, ""));
  }
  return array;
}

void shared_aug_exit(RevGen *g) {
  struct SharedMemory *s = g->shared;
  if (!s) return;
  note_last_index_runs(g);
  note_last_joined(g, false);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(g->ctx), i32 = LLVMInt32TypeInContext(g->ctx);
  unsigned nd = (unsigned)s->deferred.len;
  LLVMValueRef flags = LLVMBuildArrayAlloca(g->b, i8, LLVMConstInt(g->i64, nd ? nd : 1, 0), "may.sum");
  /* an address read throughout may have its adjoint summed if this thread wrote nowhere near it (one it
     never computed, it never read: no sum) */
  for (unsigned d = 0; d < nd; d++) {
    LLVMValueRef at = s->deferred_at[d] ? LLVMBuildLoad2(g->b, g->i64, s->deferred_at[d], "")
                                        : LLVMBuildPtrToInt(g->b, aug_value(g, s->deferred.data[d]), g->i64, "");
    LLVMValueRef end = LLVMBuildAdd(g->b, at, LLVMConstInt(g->i64, 16, 0), ""); /* wide enough for any float */
    LLVMValueRef clear = LLVMBuildICmp(g->b, LLVMIntNE, at, LLVMConstInt(g->i64, 0, 0), ""); /* read at all */
    for (unsigned k = 0; k < s->roots.len; k++) {
      LLVMValueRef lo = LLVMBuildLoad2(g->b, g->i64, range_slot(g, k, WRITTEN_LO), "");
      LLVMValueRef hi = LLVMBuildLoad2(g->b, g->i64, range_slot(g, k, WRITTEN_HI), "");
      LLVMValueRef apart = LLVMBuildOr(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, at, hi, ""),
                                       LLVMBuildICmp(g->b, LLVMIntULE, end, lo, ""), "");
      clear = LLVMBuildAnd(g->b, clear, apart, "");
    }
    LLVMValueRef idx = LLVMConstInt(g->i64, d, 0);
    LLVMBuildStore(g->b, LLVMBuildZExt(g->b, clear, i8, ""), LLVMBuildGEP2(g->b, i8, flags, &idx, 1, ""));
  }
  LLVMValueRef ranges = ranges_array(g, NULL);
  LLVMValueRef adds = object_bytes(g, s->adds, "adds");
  bool staged = false;
  for (unsigned k = 0; k < s->roots.len; k++) staged |= s->stage.data[k] != 0;
  if (staged) { /* the objects' stages, the same on every thread */
    LLVMValueRef pargs[2] = {LLVMConstInt(i32, s->roots.len, 0), object_bytes(g, s->stage.data, "stages")};
    LLVMTypeRef pparams[2] = {i32, g->ptr_type};
    ir_call_named(g->b, "__parad_rt_shared_stages", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), pparams, 2, 0), pargs, 2);
  }
  LLVMValueRef args[6] = {LLVMConstInt(i32, s->roots.len, 0), ranges, LLVMConstInt(i32, nd, 0), flags, adds,
                          LLVMConstInt(i32, s->all_noted, 0)};
  LLVMTypeRef params[6] = {i32, g->ptr_type, i32, g->ptr_type, g->ptr_type, i32};
  ir_call_named(g->b, "__parad_rt_shared_note", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 6, 0), args, 6);
}

/* ---- the reverse sweep ---- */

/* A window's reads are decided together: its flushes add at any of its members' addresses. */
static const void *run_group(RevGen *g, LLVMValueRef load) {
  const void *w = window_of(g, load);
  return w ? w : load;
}

/* The runtime keeps no pointer to the plan array it fills: the reverse sweep's other calls and stores
 * cannot change it, and loads of it stay out of loops (chunked functions read it where they test). */
static void plan_keeps_nothing(LLVMValueRef call) {
  LLVMValueRef fn = LLVMGetCalledValue(call);
  LLVMAddAttributeAtIndex(fn, 2, LLVMCreateEnumAttribute(LLVMGetModuleContext(LLVMGetGlobalParent(fn)), ir_attr_kind("nocapture"), 0));
}

/* A field of object k's plan: the value read at the entry, or, in a chunked function, the current chunk's. */
static LLVMValueRef own_field(RevGen *g, unsigned k, unsigned f, LLVMValueRef *at_entry) {
  struct SharedMemory *s = g->shared;
  if (!s->chunked) return at_entry[k];
  LLVMValueRef idx = LLVMConstInt(g->i64, PLAN_FIELDS * k + f, 0);
  return LLVMBuildLoad2(g->b, g->i64, LLVMBuildGEP2(g->b, g->i64, s->own, &idx, 1, ""), "");
}

static LLVMValueRef own_lo(RevGen *g, unsigned k) { return own_field(g, k, OWN_LO, g->shared->lo); }
static LLVMValueRef own_hi(RevGen *g, unsigned k) { return own_field(g, k, OWN_HI, g->shared->hi); }
static LLVMValueRef own_shadow_lo(RevGen *g, unsigned k) { return own_field(g, k, OWN_SHADOW_LO, g->shared->slo); }

static LLVMValueRef own_whole(RevGen *g, unsigned k) {
  if (!g->shared->chunked) return g->shared->whole[k];
  return LLVMBuildICmp(g->b, LLVMIntNE, own_field(g, k, OWN_WHOLE, NULL), LLVMConstInt(g->i64, 0, 0), "own.whole");
}

static LLVMValueRef own_span(RevGen *g, unsigned k) {
  if (!g->shared->chunked) return g->shared->span[k];
  LLVMValueRef args[2] = {own_hi(g, k), own_lo(g, k)};
  return ir_call_intrinsic(g->b, "llvm.usub.sat", &g->i64, 1, args, 2);
}

/* Whether load's adjoint at `shadow` falls in the thread's own part of object k, by the shadow's address:
 * shadow - own_shadow_lo < span - size + 1, saturated (never, where the distance to the shadow is unknown). */
static LLVMValueRef shadow_own(RevGen *g, unsigned k, LLVMValueRef load, LLVMValueRef shadow) {
  LLVMValueRef off = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, shadow, g->i64, ""), own_shadow_lo(g, k), "");
  LLVMValueRef args[2] = {own_span(g, k), LLVMConstInt(g->i64, access_size(g, load) - 1, 0)};
  return LLVMBuildICmp(g->b, LLVMIntULT, off, ir_call_intrinsic(g->b, "llvm.usub.sat", &g->i64, 1, args, 2), "mine");
}

/* Before a redirected call's reverse: the thread's plan for its objects into the callee's slots (where an
 * object has no private buffer, one of length 0). */
void shared_rev_call(RevGen *g, LLVMValueRef call) {
  struct CallReads *c = call_reads(g, call);
  struct SharedMemory *s = g->shared;
  for (unsigned j = 0; c && g->phase != PLANNING && j < c->n; j++) {
    unsigned k = c->object[j];
    bool buffered = s->elem[k] != 0;
    LLVMValueRef zero = LLVMConstInt(g->i64, 0, 0);
    LLVMValueRef plan[REDIRECT_FIELDS] = {
        [REDIRECT_WHOLE] = LLVMBuildZExt(g->b, own_whole(g, k), g->i64, ""),
        [REDIRECT_OWN_LO] = own_shadow_lo(g, k),
        [REDIRECT_OWN_SPAN] = own_span(g, k),
        [REDIRECT_BUFFER_LO] = buffered ? s->pbase[k] : zero,
        [REDIRECT_BUFFER_LEN] = buffered ? s->plen[k] : zero,
        [REDIRECT_BUFFER] = buffered ? LLVMBuildPtrToInt(g->b, s->priv[k], g->i64, "") : zero,
    };
    for (unsigned f = REDIRECT_WHOLE; f < REDIRECT_FIELDS; f++) LLVMBuildStore(g->b, plan[f], redirect_field(g, j, f));
  }
  redirect_rev_call(g, call); /* a redirected pair's call handing an address on */
}

void shared_rev_chunk_start(RevGen *g, LLVMBasicBlockRef bb) {
  struct SharedMemory *s = g->shared;
  if (!s || !s->boundary || !s->boundary[cfg_index(&g->cfg, bb)] || g->phase == PLANNING) return;
  LLVMValueRef skip = LLVMBuildLoad2(g->b, g->i64, s->chunk_skip, "chunk.skip");
  LLVMBasicBlockRef pass, ask, join;
  rev_diamond(g, LLVMBuildICmp(g->b, LLVMIntNE, skip, LLVMConstInt(g->i64, 0, 0), ""), &pass, &ask, &join);
  LLVMPositionBuilderAtEnd(g->b, pass);
  LLVMBuildStore(g->b, LLVMBuildSub(g->b, skip, LLVMConstInt(g->i64, 1, 0), ""), s->chunk_skip);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, ask);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
  LLVMValueRef args[2] = {LLVMConstInt(i32, s->roots.len, 0), s->own};
  LLVMTypeRef params[2] = {i32, g->ptr_type};
  plan_keeps_nothing(ir_call_named(g->b, "__parad_rt_shared_chunk_plan", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 2, 0), args, 2));
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
}

void shared_rev_entry(RevGen *g) {
  struct SharedMemory *s = g->shared;
  if (!s) return;
  LLVMTypeRef i8 = LLVMInt8TypeInContext(g->ctx), i32 = LLVMInt32TypeInContext(g->ctx);
  unsigned n = (unsigned)s->roots.len, nd = (unsigned)s->deferred.len;
  LLVMValueRef own = LLVMBuildArrayAlloca(g->b, g->i64, LLVMConstInt(g->i64, PLAN_FIELDS * n, 0), "own");
  LLVMValueRef flags = LLVMBuildArrayAlloca(g->b, i8, LLVMConstInt(g->i64, nd ? nd : 1, 0), "may.sum");
  LLVMValueRef elem = LLVMBuildArrayAlloca(g->b, i8, LLVMConstInt(g->i64, n, 0), "elem");
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef idx = LLVMConstInt(g->i64, k, 0);
    LLVMBuildStore(g->b, LLVMConstInt(i8, s->elem[k], 0), LLVMBuildGEP2(g->b, i8, elem, &idx, 1, ""));
  }
  LLVMValueRef args[5] = {LLVMConstInt(i32, n, 0), own, LLVMConstInt(i32, nd, 0), flags, elem};
  LLVMTypeRef params[5] = {i32, g->ptr_type, i32, g->ptr_type, g->ptr_type};
  plan_keeps_nothing(ir_call_named(g->b, "__parad_rt_shared_plan", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 5, 0), args, 5));
  s->own = own;
  if (s->chunked) {
    s->chunk_skip = LLVMBuildAlloca(g->b, g->i64, "chunk.skip.slot");
    LLVMBuildStore(g->b, ir_call_named(g->b, "__parad_rt_shared_chunk_skip", LLVMFunctionType(g->i64, NULL, 0, 0), NULL, 0), s->chunk_skip);
  }
  s->lo = xcalloc(n, sizeof *s->lo);
  s->hi = xcalloc(n, sizeof *s->hi);
  s->span = xcalloc(n, sizeof *s->span);
  s->pbase = xcalloc(n, sizeof *s->pbase);
  s->plen = xcalloc(n, sizeof *s->plen);
  s->priv = xcalloc(n, sizeof *s->priv);
  s->slo = xcalloc(n, sizeof *s->slo);
  s->plo = xcalloc(n, sizeof *s->plo);
  s->copy_lo = xcalloc(n, sizeof *s->copy_lo);
  s->copy_len = xcalloc(n, sizeof *s->copy_len);
  s->copy_delta = xcalloc(n, sizeof *s->copy_delta);
  s->whole = xcalloc(n, sizeof *s->whole);
  s->skip_lo = xcalloc(n, sizeof *s->skip_lo);
  s->skip_hi = xcalloc(n, sizeof *s->skip_hi);
  s->buffered = xcalloc(n, sizeof *s->buffered);
  LLVMValueRef *outs[PLAN_FIELDS] = {s->lo, s->hi, s->pbase, s->plen, s->priv, s->slo, s->plo, s->copy_lo, s->copy_len, s->copy_delta,
                                     s->whole, s->skip_lo, s->skip_hi, s->buffered};
  static const char *const names[PLAN_FIELDS] = {"own.lo", "own.hi", "private.base", "private.len", "private",
                                                 "own.shadow.lo", "private.lo", "copy.lo", "copy.len", "copy.delta",
                                                 "own.whole", "buffer.skip.lo", "buffer.skip.hi", "buffer.whole"};
  for (unsigned k = 0; k < n; k++) {
    for (unsigned f = 0; f < PLAN_FIELDS; f++) {
      LLVMValueRef idx = LLVMConstInt(g->i64, PLAN_FIELDS * k + f, 0);
      outs[f][k] = LLVMBuildLoad2(g->b, g->i64, LLVMBuildGEP2(g->b, g->i64, own, &idx, 1, ""), names[f]);
    }
    s->priv[k] = LLVMBuildIntToPtr(g->b, s->priv[k], g->ptr_type, "private");
    s->whole[k] = LLVMBuildICmp(g->b, LLVMIntNE, s->whole[k], LLVMConstInt(g->i64, 0, 0), "own.whole");
    vec_push(&s->common, s->whole[k]);
    s->buffered[k] = s->whole_floats[k] ? LLVMBuildICmp(g->b, LLVMIntNE, s->buffered[k], LLVMConstInt(g->i64, 0, 0), "buffer.whole")
                                        : LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 0, 0);
    LLVMValueRef args[2] = {s->hi[k], s->lo[k]};
    s->span[k] = ir_call_intrinsic(g->b, "llvm.usub.sat", &g->i64, 1, args, 2);
  }
  for (size_t i = 0; i < s->groups.len; i++) { /* each gather's clean stretch */
    struct Group *gr = &s->groups.data[i];
    if (!gr->number) continue;
    unsigned k = gr->slot / RANGE_FIELDS;
    LLVMValueRef out = LLVMBuildArrayAlloca(g->b, g->i64, LLVMConstInt(g->i64, 2, 0), "stretch");
    LLVMValueRef args[4] = {LLVMConstInt(i32, gr->number - 1, 0), s->lo[k], s->hi[k], out};
    LLVMTypeRef params[4] = {i32, g->i64, g->i64, g->ptr_type};
    ir_call_named(g->b, "__parad_rt_gather_stretch", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 4, 0), args, 4);
    LLVMValueRef one = LLVMConstInt(g->i64, 1, 0);
    gr->stretch_lo = LLVMBuildLoad2(g->b, g->i64, out, "stretch.lo");
    LLVMValueRef hi = LLVMBuildLoad2(g->b, g->i64, LLVMBuildGEP2(g->b, g->i64, out, &one, 1, ""), "stretch.hi");
    gr->stretch_len = LLVMBuildSub(g->b, hi, gr->stretch_lo, "stretch.len");
    gr->clean = LLVMBuildAlloca(g->b, LLVMInt1TypeInContext(g->ctx), "run.clean");
    LLVMBuildStore(g->b, LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 0, 0), gr->clean);
    g->ad->run_long_conditions = true;
  }
  for (size_t i = 0; i < s->per_run.len; i++) { /* a flag per loop, a distance per read (or window) */
    LLVMValueRef inst = s->per_run.data[i];
    if (!LLVMIsALoadInst(inst) || vmap_get(&s->defer_of, inst)) continue;
    const void *loop = vmap_get(&s->loop_of, inst), *read = run_group(g, inst);
    if (!vmap_has(&s->flag_of, loop)) {
      LLVMTypeRef i1 = LLVMInt1TypeInContext(g->ctx);
      LLVMValueRef own = LLVMBuildAlloca(g->b, i1, "run.own"), decided = LLVMBuildAlloca(g->b, i1, "run.decided");
      g->ad->run_long_conditions = true;
      LLVMBuildStore(g->b, LLVMConstInt(i1, 0, 0), own);
      LLVMBuildStore(g->b, LLVMConstInt(i1, 0, 0), decided);
      vmap_put(&s->own_of, loop, own);
      vmap_put(&s->flag_of, loop, decided);
    }
    if (!vmap_has(&s->delta_of, read)) {
      LLVMValueRef slot = LLVMBuildAlloca(g->b, g->i64, "run.delta");
      LLVMBuildStore(g->b, LLVMConstInt(g->i64, 0, 0), slot);
      vmap_put(&s->delta_of, read, slot);
    }
  }
  if (s->copied.len) {
    copy_flags(g);
    for (size_t k = 0; g->region_body && k < n; k++)
      if (!s->streamed || !s->streamed[k]) { /* a streamed object's are set as each run starts */
        LLVMValueRef copied = LLVMBuildICmp(g->b, LLVMIntNE, s->copy_len[k], LLVMConstInt(g->i64, 0, 0), "copied");
        set_flags(g, k, copied);
        vec_push(&s->common, copied);
        vec_push(&s->copy_common, copied);
      }
  }
  s->ok = xcalloc(nd + 1, sizeof *s->ok);
  s->sums = xcalloc(nd + 1, sizeof *s->sums);
  for (unsigned d = 0; d < nd; d++) {
    LLVMValueRef idx = LLVMConstInt(g->i64, d, 0);
    LLVMValueRef f = LLVMBuildLoad2(g->b, i8, LLVMBuildGEP2(g->b, i8, flags, &idx, 1, ""), "");
    s->ok[d] = LLVMBuildICmp(g->b, LLVMIntNE, f, LLVMConstInt(i8, 0, 0), "may.sum");
    s->sums[d] = LLVMBuildAlloca(g->b, s->deferred_type.data[d], "sum");
    LLVMBuildStore(g->b, LLVMConstNull(s->deferred_type.data[d]), s->sums[d]);
  }
  if (!s->chunked && s->common.len) { /* the conditions are set once the sweep is written */
    LLVMValueRef no = LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 0, 0);
    LLVMBasicBlockRef which = LLVMAppendBasicBlockInContext(g->ctx, g->rev, "which.plan");
    LLVMBasicBlockRef which2 = LLVMAppendBasicBlockInContext(g->ctx, g->rev, "which.plan");
    s->common_at = LLVMAppendBasicBlockInContext(g->ctx, g->rev, "common.plan");
    s->gathers_at = LLVMAppendBasicBlockInContext(g->ctx, g->rev, "gathers.plan");
    s->copies_at = LLVMAppendBasicBlockInContext(g->ctx, g->rev, "copies.plan");
    s->general_at = LLVMAppendBasicBlockInContext(g->ctx, g->rev, "any.plan");
    LLVMBuildCondBr(g->b, no, s->common_at, which);
    LLVMPositionBuilderAtEnd(g->b, which);
    LLVMBuildCondBr(g->b, no, s->gathers_at, which2);
    LLVMPositionBuilderAtEnd(g->b, which2);
    LLVMBuildCondBr(g->b, no, s->copies_at, s->general_at);
    LLVMPositionBuilderAtEnd(g->b, s->general_at);
  }
}

/* ---- the common plan ----
 * Most threads of most regions own all they read of every object and hold copies of their inputs: one
 * thread always does, and so does a thread of a team whose reads do not overlap. The tests of the plan's
 * flags stay in the reverse sweep's loops where the optimiser does not unswitch them (a CG product's
 * loop over rows spent a third of its time on them), so the sweep is written up to four times: as it is;
 * with every flag known true, which the optimiser simplifies to plain adds; where the function gathers
 * through index arrays, with every flag known true but those of the objects it gathers from (a team's
 * threads share those at the edges of their parts, and own all else: the rows of a sparse product at 2
 * threads then keep their values in registers, which the tests of the other objects' runs had taken);
 * and with the copy flags known true, for a thread that shares some of what it read with others (the
 * optimiser then unswitches the loops on the ownership flags left). The entry chooses. Flags the sweep
 * never tests are left out of the choice. */

/* Ends `at` (a block the chooser branches to) as a copy of the sweep from s->general_at on with `flags`
 * known true, and returns the condition for it: NULL, `at` unreachable, where no flag is tested. */
static LLVMValueRef version_for(RevGen *g, LLVMBasicBlockRef at, const ValueList *flags, LLVMBuilderRef cond_b) {
  struct SharedMemory *s = g->shared;
  ValueList tested = {0}, known = {0};
  for (size_t i = 0; i < flags->len; i++)
    if (LLVMGetFirstUse(flags->data[i])) {
      vec_push(&tested, flags->data[i]);
      vec_push(&known, LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 1, 0));
    }
  LLVMValueRef all = tested.len ? tested.data[0] : NULL;
  for (size_t i = 1; i < tested.len; i++) all = LLVMBuildAnd(cond_b, all, tested.data[i], "");
  if (all) {
    ir_version_blocks(g->rev, s->general_at, at, tested.data, known.data, tested.len);
  } else {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(g->ctx);
    LLVMPositionBuilderAtEnd(b, at);
    LLVMBuildUnreachable(b);
    LLVMDisposeBuilder(b);
  }
  vec_free(&tested);
  vec_free(&known);
  return all;
}

void shared_rev_version(RevGen *g) {
  struct SharedMemory *s = g->shared;
  if (!s || !s->common_at) return;
  LLVMValueRef first = LLVMGetBasicBlockTerminator(LLVMGetEntryBasicBlock(g->rev));
  LLVMValueRef second = LLVMGetBasicBlockTerminator(LLVMGetSuccessor(first, 1));
  LLVMValueRef third = LLVMGetBasicBlockTerminator(LLVMGetSuccessor(second, 1));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(g->ctx);
  /* the copies' version only where it differs from the common one: some ownership flag is tested */
  bool owner_tested = false;
  for (unsigned k = 0; k < s->roots.len; k++) owner_tested |= LLVMGetFirstUse(s->whole[k]) != NULL;
  ValueList none = {0}, gathers = {0};
  LLVMPositionBuilderBefore(b, third);
  LLVMValueRef cond = version_for(g, s->copies_at, owner_tested ? &s->copy_common : &none, b);
  if (cond) LLVMSetCondition(third, cond);
  /* a team's threads share the objects they gather from at the edges of their parts, and own the rest */
  bool gathered_whole = false;
  for (size_t i = 0; i < s->copy_common.len; i++) vec_push(&gathers, s->copy_common.data[i]);
  for (unsigned k = 0; k < s->roots.len; k++) {
    bool gathers_from = false;
    for (size_t i = 0; i < s->groups.len; i++) gathers_from |= s->groups.data[i].number && s->groups.data[i].slot / RANGE_FIELDS == k;
    if (!gathers_from && LLVMGetFirstUse(s->whole[k])) vec_push(&gathers, s->whole[k]);
    gathered_whole |= gathers_from && LLVMGetFirstUse(s->whole[k]);
  }
  LLVMPositionBuilderBefore(b, second);
  cond = version_for(g, s->gathers_at, owner_tested && gathered_whole && gathers.len > s->copy_common.len ? &gathers : &none, b);
  if (cond) LLVMSetCondition(second, cond);
  vec_free(&gathers);
  LLVMPositionBuilderBefore(b, first);
  cond = version_for(g, s->common_at, &s->common, b);
  if (cond) LLVMSetCondition(first, cond);
  LLVMDisposeBuilder(b);
}

/* Whether a run of object k's reads over [lo, hi), inst's among them, reads nothing the thread owns and lies
 * in its private buffer at whole floats: its first address and inst's step are multiples of the floats'
 * size from the buffer's start. */
static LLVMValueRef buffered_run(RevGen *g, Loop *l, LLVMValueRef inst, unsigned k, LLVMValueRef *first, LLVMValueRef lo,
                                 LLVMValueRef hi) {
  struct SharedMemory *s = g->shared;
  LLVMValueRef *next = xcalloc(l->ivs.len, sizeof *next);
  for (size_t m = 0; m < l->ivs.len; m++) next[m] = LLVMBuildAdd(g->b, first[m], rv(g, l->ivs.data[m].step), "");
  LLVMValueRef p = pointer_operand(inst);
  LLVMValueRef a0 = LLVMBuildPtrToInt(g->b, loop_evaluate(g, l, p, first, rv), g->i64, "");
  LLVMValueRef a1 = LLVMBuildPtrToInt(g->b, loop_evaluate(g, l, p, next, rv), g->i64, "");
  free(next);
  LLVMValueRef mask = LLVMConstInt(g->i64, s->elem[k] - 1, 0), zero = LLVMConstInt(g->i64, 0, 0);
  LLVMValueRef from = LLVMBuildSub(g->b, lo, s->plo[k], "");
  LLVMValueRef skip_lo = s->chunked ? s->skip_lo[k] : s->lo[k], skip_hi = s->chunked ? s->skip_hi[k] : s->hi[k];
  LLVMValueRef apart = LLVMBuildOr(g->b, LLVMBuildICmp(g->b, LLVMIntULE, hi, skip_lo, ""),
                                   LLVMBuildICmp(g->b, LLVMIntUGE, lo, skip_hi, ""), "");
  LLVMValueRef conds[5] = {
      apart,
      LLVMBuildICmp(g->b, LLVMIntNE, s->plen[k], zero, ""),
      LLVMBuildICmp(g->b, LLVMIntUGE, lo, s->plo[k], ""),
      LLVMBuildICmp(g->b, LLVMIntULE, LLVMBuildSub(g->b, hi, s->plo[k], ""), s->plen[k], ""),
      LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, LLVMBuildOr(g->b, from, LLVMBuildSub(g->b, a1, a0, ""), ""), mask, ""),
                    zero, ""),
  };
  LLVMValueRef all = conds[0];
  for (int c = 1; c < 5; c++) all = LLVMBuildAnd(g->b, all, conds[c], "");
  return all;
}

/* The alignment of an add into a private buffer: aligned for its floats of e bytes, not for wider vectors. */
static unsigned buffer_align(unsigned align, unsigned e) { return align && align < e ? align : e; }

/* Whether l stores into object k: then its reads of k are only decided as the thread's own (an in-place
 * update reads what it writes), so that their adjoints and the stores' go at the same addresses as the
 * vectoriser sees them. */
static bool stores_into(RevGen *g, Loop *l, unsigned k) {
  for (size_t b = 0; b < g->cfg.blocks.len; b++)
    if (l->body[b])
      for (LLVMValueRef i = LLVMGetFirstInstruction(g->cfg.blocks.data[b]); i; i = LLVMGetNextInstruction(i))
        if (!LLVMIsALoadInst(i) && (size_t)vmap_get(&g->shared->root_of, i) == k + 1) return true;
  return false;
}

/* A run of l's reverse, as it starts: the counters of its first iteration and where it ended, into fresh
 * arrays (the caller frees them). */
static void reverse_run_ends(RevGen *g, Loop *l, LLVMValueRef **first, LLVMValueRef **last) {
  *first = xcalloc(l->ivs.len, sizeof **first), *last = xcalloc(l->ivs.len, sizeof **last);
  loop_first_and_last(g, l, NULL, *first, *last, rv);
  for (size_t k = 0; k < l->ivs.len; k++) (*last)[k] = loop_iv_last(g, l, &l->ivs.data[k]);
}

/* The run's reads, each read (or window) decided on the union of its addresses; reads of one object at
 * constant distances from one address, less than the loop's step apart (a particle's x, y and z in an
 * array of particles), decided as one: a test of the union instead of one per field, each as costly as a
 * short run's iteration (ljcells' pair loop at 2 threads: three tests of a dozen instructions a run of
 * about a dozen pairs). Reads further apart (a stencil's rows) are decided each on its own: the row
 * above a thread's first row is another thread's while the row itself is its own. Merging is always
 * right: a union inside the own part, or apart from it in the buffer at whole floats, holds each. */
typedef struct {
  ValueList members;     /* reads (or windows' reads) */
  unsigned k;
  LLVMValueRef anchor;   /* where merged by offsets: the address the members are constant offsets from */
  long long off;         /* the first member's offset from it */
  LLVMValueRef low, high; /* such a group's members with the lowest offset and the highest end */
  long long low_off, high_end;
  LLVMValueRef lo, hi;
} RunGroup;
typedef VEC(RunGroup) RunGroups;

/* The group of inst (a read of object k decided per run of l) among groups, appended if new. */
static RunGroup *run_group_of(RevGen *g, Loop *l, LLVMValueRef inst, unsigned k, RunGroups *groups) {
  struct SharedMemory *s = g->shared;
  const void *read = run_group(g, inst);
  long long off = 0, size = (long long)access_size(g, inst);
  unsigned long long step = 0;
  LLVMValueRef anchor = read == inst ? ir_strip_constant_offsets(g->ad->mod, pointer_operand(inst), &off) : NULL;
  if (anchor && !step_of(g, l, pointer_operand(inst), &step, 0)) anchor = NULL;
  long long stride = (long long)step < 0 ? -(long long)step : (long long)step, unit = s->elem[k] ? s->elem[k] : 1;
  for (size_t j = 0; j < groups->len; j++) {
    RunGroup *r = &groups->data[j];
    bool same = r->members.len && run_group(g, r->members.data[0]) == read;
    bool near = anchor && r->anchor == anchor && r->k == k && off - r->off < stride && r->off - off < stride && (off - r->off) % unit == 0;
    if (!same && !near) continue;
    vec_push(&r->members, inst);
    if (near && off < r->low_off) r->low = inst, r->low_off = off;
    if (near && off + size > r->high_end) r->high = inst, r->high_end = off + size;
    if (!near) r->anchor = NULL;
    return r;
  }
  vec_push(groups, ((RunGroup){.k = k, .anchor = anchor, .off = off, .low = inst, .high = inst, .low_off = off, .high_end = off + size}));
  vec_push(&groups->data[groups->len - 1].members, inst);
  return &groups->data[groups->len - 1];
}

/* Whether inst is a read decided per run of l (not one summed in a register). */
static bool read_of_run(struct SharedMemory *s, LLVMValueRef inst, Loop *l) {
  return LLVMIsALoadInst(inst) && vmap_get(&s->loop_of, inst) == l && !vmap_get(&s->defer_of, inst);
}

/* Whether object k's reads in l may all go into its private buffer with no test (a thread whose reads
 * other threads all share: a convolution's input, read whole by each thread of output channels). */
static bool may_buffer_whole(RevGen *g, Loop *l, unsigned k) { return g->shared->whole_floats[k] && !stores_into(g, l, k); }

/* The distance from object k's shadow to its private buffer, in the same addresses. */
static LLVMValueRef to_buffer(RevGen *g, unsigned k) {
  return LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, g->shared->priv[k], g->i64, ""), g->shared->pbase[k], "to.buffer");
}

/* Whether every object l's runs read is, as a whole, the thread's own (NULL when planning or none is read);
 * into *plain, whether each is its own or in its private buffer as a whole (NULL where no read may be). */
static LLVMValueRef runs_all_own(RevGen *g, Loop *l, LLVMValueRef *plain) {
  struct SharedMemory *s = g->shared;
  LLVMValueRef all = NULL, each = NULL;
  bool buffered = false;
  if (g->phase == PLANNING) return NULL;
  for (size_t i = 0; i < s->per_run.len; i++) {
    LLVMValueRef inst = s->per_run.data[i];
    if (!read_of_run(s, inst, l)) continue;
    unsigned k = (unsigned)((size_t)vmap_get(&s->root_of, inst) - 1);
    LLVMValueRef w = own_whole(g, k), p = w;
    if (may_buffer_whole(g, l, k)) p = LLVMBuildOr(g->b, w, s->buffered[k], ""), buffered = true;
    all = all ? LLVMBuildAnd(g->b, all, w, "") : w;
    each = each ? LLVMBuildAnd(g->b, each, p, "") : p;
  }
  *plain = buffered ? each : NULL;
  return all;
}

static void decide_runs(RevGen *g, Loop *l);

/* ---- a gather's clean stretch ----
 * A thread of a sparse product reads, through the column indices of its rows, the vector's elements near
 * its own rows: other threads read those at the edges of its share, none read those in the middle. Its
 * reverse sweep tested each nonzero's address against the thread's own part (a subtraction, a comparison
 * and a branch per nonzero, a quarter of the product's time at 2 threads). The runtime keeps the least
 * and most index of each block of the thread's longest run of the index array (noted by the forward
 * sweep as it finds the run's range), and, once the own part is known, the longest stretch of that run
 * whose blocks gather only from it (__parad_rt_gather_stretch). Each run of the gather's loop is then
 * tested once, as its reverse starts: inside the stretch, its adds go plainly, and the unswitching gives
 * such runs a copy of the loop with no test per element. The indices the reverse sweep uses are the
 * forward sweep's, whether it reads them again or from the tape, so the blocks describe them. */

/* As a run of l's reverse starts: whether each gather of l reads its run of the index array inside the
 * gather's stretch. */
static void clean_runs(RevGen *g, Loop *l) {
  struct SharedMemory *s = g->shared;
  LLVMValueRef *first = NULL, *last = NULL;
  for (size_t i = 0; i < s->groups.len; i++) {
    struct Group *gr = &s->groups.data[i];
    if (!gr->number || gr->loop != l) continue;
    if (!first) reverse_run_ends(g, l, &first, &last);
    LLVMValueRef ends[2] = {loop_evaluate(g, l, gr->walk, first, rv), loop_evaluate(g, l, gr->walk, last, rv)};
    if (g->phase == PLANNING) continue;
    /* the run's first and last indices inside: every one between them is (a subtraction and a comparison
       each, where the stretch's length is computed once); of blocks of indices, each end block's first
       and last */
    LLVMValueRef inside = NULL;
    unsigned long long rest = gr->walk_size - access_size(g, gr->index);
    for (int e = 0; e < 4; e++) {
      if (e >= 2 && !rest) break;
      LLVMValueRef at = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, ends[e % 2], g->i64, ""), gr->stretch_lo, "");
      if (e >= 2) at = LLVMBuildAdd(g->b, at, LLVMConstInt(g->i64, rest, 0), "");
      LLVMValueRef in = LLVMBuildICmp(g->b, LLVMIntULT, at, gr->stretch_len, "");
      inside = inside ? LLVMBuildAnd(g->b, inside, in, "run.clean") : in;
    }
    LLVMBuildStore(g->b, inside, gr->clean);
  }
  free(first);
  free(last);
}

/* PARAD_CHECK_CLEAN (at compile time), for tests: a plain add that `claim` (an i1) says lies in the thread's
 * own part (a gather's clean run's, a run's decided as the thread's own or at distance 0) stops the program
 * where it lies outside (where its distance to the shadow is known); the others are counted in
 * __parad_rt_clean_adds (runtime/omp.c). Such adds are otherwise never tested, and a wrong one is a race
 * a test sees by chance. */
static void check_clean(RevGen *g, LLVMValueRef claim, unsigned k, LLVMValueRef load, LLVMValueRef shadow) {
  LLVMValueRef mine = shadow_own(g, k, load, shadow);
  LLVMValueRef known = LLVMBuildICmp(g->b, LLVMIntNE, own_shadow_lo(g, k), LLVMConstAllOnes(g->i64), "");
  LLVMValueRef wrong = LLVMBuildAnd(g->b, LLVMBuildAnd(g->b, claim, known, ""), LLVMBuildNot(g->b, mine, ""), "");
  LLVMBasicBlockRef yes, no, join;
  rev_diamond(g, wrong, &yes, &no, &join);
  LLVMPositionBuilderAtEnd(g->b, yes);
  LLVMTypeRef params[1] = {g->i64};
  LLVMValueRef at[1] = {LLVMBuildPtrToInt(g->b, shadow, g->i64, "")};
  ir_call_named(g->b, "__parad_rt_clean_violation", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 1, 0), at, 1);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, no);
  LLVMValueRef counter = LLVMGetNamedGlobal(g->ad->mod, "__parad_rt_clean_adds"); /* how many were checked */
  if (!counter) counter = LLVMAddGlobal(g->ad->mod, g->i64, "__parad_rt_clean_adds");
  LLVMBuildAtomicRMW(g->b, LLVMAtomicRMWBinOpAdd, counter, LLVMBuildZExt(g->b, claim, g->i64, ""), LLVMAtomicOrderingMonotonic, 0);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
}

/* cond, or (for a gather's read) the current run of its loop lies in the gather's stretch. */
static LLVMValueRef or_clean(RevGen *g, struct Group *gr, LLVMValueRef cond) {
  if (!gr->clean || g->phase == PLANNING) return cond;
  return LLVMBuildOr(g->b, cond, LLVMBuildLoad2(g->b, LLVMInt1TypeInContext(g->ctx), gr->clean, "run.clean"), "");
}

/* The run's flags where it is decided as a whole: each read's adjoints plainly, at the shadow where the
 * object is the thread's own (all of them: own), else in its buffer. */
static void runs_decided(RevGen *g, Loop *l, bool own) {
  struct SharedMemory *s = g->shared;
  LLVMTypeRef i1 = LLVMInt1TypeInContext(g->ctx);
  LLVMBuildStore(g->b, LLVMConstInt(i1, 1, 0), vmap_get(&s->flag_of, l));
  LLVMBuildStore(g->b, LLVMConstInt(i1, own, 0), vmap_get(&s->own_of, l));
  for (size_t i = 0; i < s->per_run.len; i++) {
    LLVMValueRef inst = s->per_run.data[i];
    if (!read_of_run(s, inst, l)) continue;
    unsigned k = (unsigned)((size_t)vmap_get(&s->root_of, inst) - 1);
    LLVMValueRef delta = LLVMConstInt(g->i64, 0, 0);
    if (!own && may_buffer_whole(g, l, k)) delta = LLVMBuildSelect(g->b, own_whole(g, k), delta, to_buffer(g, k), "");
    LLVMBuildStore(g->b, delta, vmap_get(&s->delta_of, run_group(g, inst)));
  }
}

/* if (cond) the run is decided as a whole (own: all at the shadow), else if (then) in buffers too, else per
 * run. */
static void decided_if(RevGen *g, Loop *l, LLVMValueRef cond, bool own, LLVMValueRef then) {
  LLVMBasicBlockRef yes, no, join;
  rev_diamond(g, cond, &yes, &no, &join);
  LLVMPositionBuilderAtEnd(g->b, yes);
  runs_decided(g, l, own);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, no);
  if (then) decided_if(g, l, then, false, NULL);
  else decide_runs(g, l);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
}

/* Each run decided as it starts; not where every object it reads is the thread's own as a whole (a team of
 * one thread), nor where each is its own or in its buffer as a whole: the unswitching then makes a copy
 * of the enclosing loop with no decision per run, which costs as much as the run itself where runs are
 * short (a sparse product's rows, 5 nonzeros each: cg's gradient at 1 thread 126 -> 113 ms with this and
 * shared_accumulate's untested adds; a convolution's runs of 3 taps, whose input every thread reads
 * whole: at 2 threads a decision of some 40 instructions a run). The all-own test comes first, as it
 * was before buffers were told whole: the unswitching's copies for it stay as they were (a sparse
 * product's at 2 threads took 4% more instructions with one test of both). */
void shared_rev_enter_loop(RevGen *g, Loop *l) {
  struct SharedMemory *s = g->shared;
  if (!s || !l->exit_iv) return;
  clean_runs(g, l);
  LLVMValueRef all_plain, all_own = runs_all_own(g, l, &all_plain);
  if (all_own) decided_if(g, l, all_own, true, all_plain);
  else decide_runs(g, l);
}

/* Whether all of the run's reads lie in the thread's own parts, tested on the union of each family of
 * reads (one object's reads at constant offsets from one address, however far apart: a stencil's rows and
 * planes, a window's taps): the family's span is its lowest member's start to its highest member's end,
 * as each member's is the address's own span moved by its offset. NULL where that joins no two groups.
 * A 7-point stencil's run tested five ranges (some 300 instructions a run of 98 iterations at 2 threads:
 * heat3d's reverse took 9% more instructions than at 1 thread); a thread's runs away from the edges of
 * its own part pass the one test. */
static LLVMValueRef families_own(RevGen *g, Loop *l, RunGroups *groups, LLVMValueRef *first, LLVMValueRef *last) {
  typedef struct { LLVMValueRef anchor, low, high; long long low_off, high_end; unsigned k; } Family;
  VEC(Family) fams = {0};
  for (size_t j = 0; j < groups->len; j++)
    for (size_t m = 0; m < groups->data[j].members.len; m++) {
      LLVMValueRef inst = groups->data[j].members.data[m];
      long long off = 0, end;
      LLVMValueRef anchor = ir_strip_constant_offsets(g->ad->mod, pointer_operand(inst), &off);
      unsigned k = groups->data[j].k;
      end = off + (long long)access_size(g, inst);
      size_t f = 0;
      while (f < fams.len && (fams.data[f].anchor != anchor || fams.data[f].k != k)) f++;
      if (f == fams.len) vec_push(&fams, ((Family){anchor, inst, inst, off, end, k}));
      Family *fa = &fams.data[f];
      if (off < fa->low_off) fa->low = inst, fa->low_off = off;
      if (end > fa->high_end) fa->high = inst, fa->high_end = end;
    }
  LLVMValueRef all = NULL;
  for (size_t f = 0; fams.len < groups->len && f < fams.len; f++) { /* some family joins two groups */
    Family *fa = &fams.data[f];
    LLVMValueRef lo, hi, unused;
    access_span(g, l, fa->low, first, last, rv, &lo, &unused);
    access_span(g, l, fa->high, first, last, rv, &unused, &hi);
    LLVMValueRef inside = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, lo, own_lo(g, fa->k), ""),
                                       LLVMBuildICmp(g->b, LLVMIntULE, hi, own_hi(g, fa->k), ""), "");
    all = all ? LLVMBuildAnd(g->b, all, inside, "run.own") : inside;
  }
  vec_free(&fams);
  return all;
}

static void decide_runs(RevGen *g, Loop *l) {
  struct SharedMemory *s = g->shared;
  bool planning = g->phase == PLANNING;
  LLVMValueRef *first, *last;
  RunGroups groups = {0};
  reverse_run_ends(g, l, &first, &last);
  for (size_t i = 0; i < s->per_run.len; i++) {
    LLVMValueRef inst = s->per_run.data[i];
    if (read_of_run(s, inst, l)) run_group_of(g, l, inst, (unsigned)((size_t)vmap_get(&s->root_of, inst) - 1), &groups);
  }
  LLVMValueRef together = planning ? NULL : families_own(g, l, &groups, first, last);
  LLVMBasicBlockRef yes, no, join;
  if (together) {
    rev_diamond(g, together, &yes, &no, &join);
    LLVMPositionBuilderAtEnd(g->b, yes);
    runs_decided(g, l, true);
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, no);
  }
  for (size_t j = 0; j < groups.len; j++) { /* a merged group's union from its two ends; else from each member */
    RunGroup *r = &groups.data[j];
    LLVMValueRef ends[2] = {r->low, r->high};
    for (size_t m = 0, n = r->anchor ? (r->low == r->high ? 1 : 2) : r->members.len; m < n; m++) {
      LLVMValueRef inst = r->anchor ? ends[m] : r->members.data[m], lo, hi;
      access_span(g, l, inst, first, last, rv, &lo, &hi);
      if (planning) continue;
      if (r->anchor) {
        if (inst == r->low) r->lo = lo;
        if (inst == r->high) r->hi = hi;
        continue;
      }
      LLVMValueRef los[2] = {r->lo, lo}, his[2] = {r->hi, hi};
      r->lo = m ? ir_call_intrinsic(g->b, "llvm.umin", &g->i64, 1, los, 2) : lo;
      r->hi = m ? ir_call_intrinsic(g->b, "llvm.umax", &g->i64, 1, his, 2) : hi;
    }
  }
  LLVMValueRef decided = NULL, own = NULL;
  for (size_t j = 0; j < groups.len && !planning; j++) {
    RunGroup *r = &groups.data[j];
    unsigned k = r->k;
    LLVMValueRef inside = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, r->lo, own_lo(g, k), ""),
                                       LLVMBuildICmp(g->b, LLVMIntULE, r->hi, own_hi(g, k), ""), "");
    LLVMValueRef delta = LLVMConstInt(g->i64, 0, 0), ok = inside;
    bool linear = true; /* buffered_run takes the step of a linear address */
    for (size_t m = 0; m < r->members.len; m++) linear &= !vmap_get(&s->monotone, r->members.data[m]);
    if (s->elem[k] && !stores_into(g, l, k) && linear) {
      ok = LLVMBuildOr(g->b, inside, buffered_run(g, l, r->members.data[0], k, first, r->lo, r->hi), "");
      delta = LLVMBuildSelect(g->b, inside, delta, to_buffer(g, k), "");
    }
    for (size_t m = 0; m < r->members.len; m++) LLVMBuildStore(g->b, delta, vmap_get(&s->delta_of, run_group(g, r->members.data[m])));
    decided = decided ? LLVMBuildAnd(g->b, decided, ok, "") : ok;
    own = own ? LLVMBuildAnd(g->b, own, inside, "") : inside;
  }
  if (decided) LLVMBuildStore(g->b, decided, vmap_get(&s->flag_of, l));
  if (own) LLVMBuildStore(g->b, own, vmap_get(&s->own_of, l));
  if (together) {
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, join);
  }
  for (size_t j = 0; j < groups.len; j++) vec_free(&groups.data[j].members);
  vec_free(&groups);
  free(first);
  free(last);
}

LLVMValueRef shared_run_slot(RevGen *g, Loop *l) {
  return g->shared && g->phase != PLANNING ? vmap_get(&g->shared->own_of, l) : NULL;
}

void shared_narrow_run(RevGen *g, Loop *l, LLVMValueRef cond) {
  LLVMValueRef slots[2] = {g->shared && g->phase != PLANNING ? vmap_get(&g->shared->flag_of, l) : NULL, shared_run_slot(g, l)};
  LLVMTypeRef i1 = LLVMInt1TypeInContext(g->ctx);
  for (int i = 0; i < 2 && slots[0]; i++)
    LLVMBuildStore(g->b, LLVMBuildAnd(g->b, LLVMBuildLoad2(g->b, i1, slots[i], ""), cond, ""), slots[i]);
}

bool shared_accumulate(RevGen *g, LLVMValueRef load, LLVMValueRef shadow, LLVMValueRef d, unsigned align,
                       void (*plain)(RevGen *, LLVMValueRef, LLVMValueRef, unsigned),
                       void (*atomic)(RevGen *, LLVMValueRef, LLVMValueRef, LLVMValueRef, unsigned, LLVMValueRef)) {
  struct SharedMemory *s = g->shared;
  size_t k1 = s ? (size_t)vmap_get(&s->root_of, load) : 0;
  if (!k1 || s->atomic_only[k1 - 1]) return false;
  bool planning = g->phase == PLANNING;
  size_t d1 = (size_t)vmap_get(&s->defer_of, load);
  LLVMTypeRef i1 = LLVMInt1TypeInContext(g->ctx);
  LLVMValueRef cond;           /* where the yes side applies: a sum in a register, or a plain add */
  struct Group *gr = NULL;     /* a read decided one by one: its group */
  unsigned k = (unsigned)(k1 - 1);
  Loop *l = vmap_get(&s->loop_of, load);
  if (d1) {
    cond = planning ? LLVMGetUndef(i1) : s->ok[d1 - 1];
  } else if (planning) {
    if (!l) rv(g, s->groups.data[(size_t)vmap_get(&s->group_of, load) - 1].anchor);
    cond = LLVMGetUndef(i1);
  } else if (l) { /* decided once for the run of the loop: all of its reads the thread's own (most runs: tested
                     first, so that the loop's copy for such runs tests nothing else), or each as a whole in its
                     buffer */
    cond = LLVMBuildLoad2(g->b, i1, vmap_get(&s->own_of, l), "own");
  } else { /* plainly where no other thread read: lo <= at and at + size <= hi, as one unsigned comparison
              (at - lo < hi - lo - size + 1, saturated at 0), whose bound the loops hoist. Tested for all
              the block's reads at constant distances from the same address at once: the same test for
              each, which the optimiser computes once. Not tested where the thread's own part is all it
              read (a team of one thread, a thread whose reads no other shares): the unswitching then
              makes a copy of the loop with no test per address. A gather's lone read is tested by its
              shadow's address alone (below), which its add computes anyway: the loop then holds neither
              the object's address nor its own part's bounds in the object's addresses (cg's product at 2
              threads spilled three values a nonzero). */
    gr = &s->groups.data[(size_t)vmap_get(&s->group_of, load) - 1];
    if (gr->index && gr->hi - gr->lo == access_size(g, load)) { /* one gathered read: tested below, by its shadow */
      cond = or_clean(g, gr, own_whole(g, k));
      goto tested;
    }
    LLVMValueRef base = LLVMBuildPtrToInt(g->b, rv(g, gr->anchor), g->i64, "");
    LLVMValueRef at = LLVMBuildAdd(g->b, base, LLVMConstInt(g->i64, (unsigned long long)gr->lo, 1), "");
    LLVMValueRef args[2] = {own_span(g, k), LLVMConstInt(g->i64, (unsigned long long)(gr->hi - gr->lo - 1), 0)};
    LLVMValueRef bound = ir_call_intrinsic(g->b, "llvm.usub.sat", &g->i64, 1, args, 2);
    cond = LLVMBuildICmp(g->b, LLVMIntULT, LLVMBuildSub(g->b, at, own_lo(g, k), ""), bound, "own");
    cond = or_clean(g, gr, LLVMBuildOr(g->b, own_whole(g, k), cond, ""));
  }
tested:;
  LLVMBasicBlockRef yes, no, join;
  rev_diamond(g, cond, &yes, &no, &join);
  if (gr && gr->clean) ir_branch_weights(LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(g->b)), 2000, 1); /* most runs lie in the stretch */
  LLVMPositionBuilderAtEnd(g->b, yes);
  if (g->ad->check_clean && !planning && !d1 && (l || (gr && gr->clean)))
    check_clean(g, LLVMBuildLoad2(g->b, i1, l ? vmap_get(&s->own_of, l) : gr->clean, ""), k, load, shadow);
  if (!d1) {
    plain(g, shadow, d, align);
  } else if (!planning) {
    LLVMTypeRef t = s->deferred_type.data[d1 - 1];
    LLVMBuildStore(g->b, ir_adjoint_sum(g->b, LLVMBuildLoad2(g->b, t, s->sums[d1 - 1], ""), d), s->sums[d1 - 1]);
  }
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, no);
  if (l && !d1 && !planning) { /* each read of the run at its distance: 0 or into the buffer */
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
    LLVMBasicBlockRef decided = LLVMAppendBasicBlockInContext(g->ctx, fn, "decided");
    LLVMBasicBlockRef undecided = LLVMAppendBasicBlockInContext(g->ctx, fn, "undecided");
    LLVMBuildCondBr(g->b, LLVMBuildLoad2(g->b, i1, vmap_get(&s->flag_of, l), "decided"), decided, undecided);
    LLVMPositionBuilderAtEnd(g->b, decided);
    LLVMValueRef delta = LLVMBuildLoad2(g->b, g->i64, vmap_get(&s->delta_of, run_group(g, load)), "delta");
    if (g->ad->check_clean) check_clean(g, LLVMBuildICmp(g->b, LLVMIntEQ, delta, LLVMConstInt(g->i64, 0, 0), ""), k, load, shadow);
    plain(g, LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), shadow, &delta, 1, ""), d,
          s->elem[k] ? buffer_align(align, s->elem[k]) : align);
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, undecided);
  }
  LLVMBasicBlockRef join_own = NULL;
  if (!d1 && !planning) {
    /* a run not decided as a whole, or a group not wholly the thread's own: each read's adjoint plainly
       where the address is the thread's own (never into the buffer there: runtime/omp.c neither clears
       nor scans that part of it), and only then into the buffer or atomically */
    LLVMBasicBlockRef here, elsewhere;
    rev_diamond(g, shadow_own(g, k, load, shadow), &here, &elsewhere, &join_own);
    /* most of a thread's adds are its own: the buffer's bounds, not the own part's, go to the stack
       (cg's product at 2 threads reloaded the own part's a nonzero) */
    ir_branch_weights(LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(g->b)), 2000, 1);
    LLVMPositionBuilderAtEnd(g->b, here);
    plain(g, shadow, d, align);
    LLVMBuildBr(g->b, join_own);
    LLVMPositionBuilderAtEnd(g->b, elsewhere);
  }
  /* a team of one thread owns every read of a run: no test of its own for the atomic adds of such reads
     (one condition fewer for the unswitching to copy their loop for) */
  LLVMValueRef solo = l ? NULL : g->solo;
  if (s->elem[k] && !d1 && !planning) {
    /* into the thread's private buffer, where it has one that covers the address (its base is told in the
       shadow's addresses: the adjoint may be for another read than this one, as a window's flush is) */
    unsigned size = access_size(g, load), e = s->elem[k];
    LLVMValueRef off = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, shadow, g->i64, ""), s->pbase[k], "");
    LLVMValueRef args[2] = {s->plen[k], LLVMConstInt(g->i64, size - 1, 0)};
    LLVMValueRef inside = LLVMBuildICmp(g->b, LLVMIntULT, off, ir_call_intrinsic(g->b, "llvm.usub.sat", &g->i64, 1, args, 2), "");
    LLVMValueRef aligned = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, off, LLVMConstInt(g->i64, e - 1, 0), ""),
                                         LLVMConstInt(g->i64, 0, 0), "");
    LLVMBasicBlockRef kept, shared, join2;
    rev_diamond(g, LLVMBuildAnd(g->b, inside, aligned, "private"), &kept, &shared, &join2);
    LLVMPositionBuilderAtEnd(g->b, kept);
    plain(g, LLVMBuildGEP2(g->b, LLVMInt8TypeInContext(g->ctx), s->priv[k], &off, 1, ""), d, buffer_align(align, e));
    LLVMBuildBr(g->b, join2);
    LLVMPositionBuilderAtEnd(g->b, shared);
    atomic(g, load, shadow, d, align, solo);
    LLVMBuildBr(g->b, join2);
    LLVMPositionBuilderAtEnd(g->b, join2);
  } else {
    atomic(g, load, shadow, d, align, solo);
  }
  if (join_own) {
    LLVMBuildBr(g->b, join_own);
    LLVMPositionBuilderAtEnd(g->b, join_own);
  }
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
  return true;
}

void shared_flush(RevGen *g, bool at_end) {
  struct SharedMemory *s = g->shared;
  if (!s) return;
  for (unsigned j = 0; j < s->deferred.len; j++) {
    LLVMValueRef shadow = rs(g, s->deferred.data[j]);
    if (g->phase == PLANNING) continue;
    LLVMBasicBlockRef yes, no, join;
    rev_diamond(g, s->ok[j], &yes, &no, &join);
    LLVMPositionBuilderAtEnd(g->b, yes);
    LLVMTypeRef t = s->deferred_type.data[j];
    ir_atomic_fadd(g->b, shadow, LLVMBuildLoad2(g->b, t, s->sums[j], ""), 0);
    LLVMBuildStore(g->b, LLVMConstNull(t), s->sums[j]);
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, no);
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, join);
  }
  bool kept = false;
  for (size_t k = 0; k < s->roots.len; k++) kept |= s->elem[k] != 0;
  /* the private buffers too; at the end of a region's body, when the whole team is there */
  const char *flush = at_end && g->region_body ? "__parad_rt_shared_flush_final" : "__parad_rt_shared_flush";
  if (kept && g->phase != PLANNING) ir_call_named(g->b, flush, LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), NULL, 0, 0), NULL, 0);
}

/* ---- a task's inputs: each run tested ---- */

/* Whether each of l's copied loads reads its run inside its object's input, into its flag: from the
 * addresses of the run's first and last iterations, as `value` gives them (the last from the trip count
 * where from_trip, else from the counters' last values), against the input `input` gives for the object. */
static void test_runs(RevGen *g, Loop *l, LLVMValueRef (*value)(RevGen *, LLVMValueRef), bool from_trip,
                      LLVMValueRef (*input)(RevGen *, unsigned, LLVMValueRef *)) {
  struct SharedMemory *s = g->shared;
  if (g->region_body) return; /* a region's flags are set once per call */
  LLVMValueRef *first = NULL, *last = NULL;
  for (size_t i = 0; i < s->copied.len; i++) {
    LLVMValueRef inst = s->copied.data[i], lo, hi;
    unsigned k = (unsigned)((size_t)vmap_get(&s->root_of, inst) - 1);
    if (vmap_get(&s->loop_of, inst) != l || (input == aug_input && !s->input_at[k])) continue; /* no copy needed */
    if (!first) {
      first = xcalloc(l->ivs.len, sizeof *first), last = xcalloc(l->ivs.len, sizeof *last);
      loop_first_and_last(g, l, from_trip ? loop_trip(g, l, value) : NULL, first, last, value);
      for (size_t k = 0; !from_trip && k < l->ivs.len; k++) last[k] = loop_iv_last(g, l, &l->ivs.data[k]);
    }
    LLVMValueRef p = pointer_operand(inst);
    address_span(g, loop_evaluate(g, l, p, first, value), loop_evaluate(g, l, p, last, value), access_size(g, inst), &lo, &hi);
    if (g->phase == PLANNING) continue;
    LLVMValueRef len, start = input(g, k, &len);
    LLVMBuildStore(g->b, within(g, lo, hi, start, len), vmap_get(&s->copy_flag, inst));
  }
  free(first);
  free(last);
}

static LLVMValueRef aug_input(RevGen *g, unsigned k, LLVMValueRef *len) {
  LLVMValueRef at = g->shared->input_at[k], one = LLVMConstInt(g->i64, 1, 0);
  *len = LLVMBuildLoad2(g->b, g->i64, LLVMBuildGEP2(g->b, g->i64, at, &one, 1, ""), "input.len");
  return LLVMBuildLoad2(g->b, g->i64, at, "input.lo");
}

static LLVMValueRef rev_input(RevGen *g, unsigned k, LLVMValueRef *len) {
  *len = g->shared->copy_len[k];
  return g->shared->copy_lo[k];
}

/* ---- a region's streamed inputs: each run copied, or not ---- */

/* Whether a run of l copies streamed object k: a block of l records a read of it. */
static bool run_copies(RevGen *g, Loop *l, size_t k) {
  struct SharedMemory *s = g->shared;
  if (!s->streamed || !s->streamed[k] || !l->bulk_bytes) return false;
  for (size_t b = 0; b < g->cfg.blocks.len; b++) {
    BlockPlan *p = l->body[b] ? &g->plan[b] : NULL;
    for (size_t i = 0; p && i < p->captures.len; i++) {
      LLVMValueRef v = p->captures.data[i].item.value;
      if (capture_copied(g, &p->captures.data[i]) && (size_t)vmap_get(&s->root_of, v) == k + 1 && vmap_get(&s->loop_of, v) == l)
        return true;
    }
  }
  return false;
}

bool shared_runs_copy(RevGen *g, Loop *l) {
  for (size_t k = 0; g->shared && k < g->shared->roots.len; k++)
    if (run_copies(g, l, k)) return true;
  return false;
}

static void set_run_flags(RevGen *g, Loop *l, size_t k, LLVMValueRef copied) {
  struct SharedMemory *s = g->shared;
  for (size_t i = 0; i < s->copied.len; i++) {
    LLVMValueRef v = s->copied.data[i];
    if ((size_t)vmap_get(&s->root_of, v) == k + 1 && vmap_get(&s->loop_of, v) == l) LLVMBuildStore(g->b, copied, vmap_get(&s->copy_flag, v));
  }
}

/* aug, as a run of l is about to start: whether it has iterations and none of its stores but object k's own
 * and those into the thread's own memory may write [lo, hi). */
static LLVMValueRef run_apart(RevGen *g, Loop *l, RunEnds *e, size_t k, LLVMValueRef lo, LLVMValueRef hi) {
  LLVMValueRef apart = LLVMBuildICmp(g->b, LLVMIntNE, e->trip, LLVMConstInt(LLVMTypeOf(e->trip), 0, 0), ""), a, b;
  for (size_t c = 0; c < g->cfg.blocks.len; c++)
    for (LLVMValueRef i = l->body[c] ? LLVMGetFirstInstruction(g->cfg.blocks.data[c]) : NULL; i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsAStoreInst(i) || (size_t)vmap_get(&g->shared->root_of, i) == k + 1 || rev_thread_private(LLVMGetOperand(i, 1))) continue;
      run_span(g, l, e, LLVMGetOperand(i, 1), access_size(g, i), &a, &b);
      apart = LLVMBuildAnd(g->b, apart, LLVMBuildOr(g->b, LLVMBuildICmp(g->b, LLVMIntULE, b, lo, ""), LLVMBuildICmp(g->b, LLVMIntULE, hi, a, ""), ""), "apart");
    }
  return apart;
}

/* aug, as a run of l is about to start: each streamed object's copy of what the run reads, where no store
 * of the run may write there (a run of no iterations reads nothing), and the word saying which were
 * made (shared_run_word). */
static void copy_run(RevGen *g, Loop *l) {
  struct SharedMemory *s = g->shared;
  if (!shared_runs_copy(g, l)) return;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
  RunEnds e = {0};
  LLVMValueRef word = LLVMConstInt(g->i64, 0, 0);
  unsigned bit = 0;
  bool first = nothing_before(g, l);
  for (size_t k = 0; k < s->roots.len; k++) {
    if (!run_copies(g, l, k)) continue;
    LLVMValueRef lo = NULL, hi = NULL, a, b;
    for (size_t i = 0; i < s->copied.len; i++) {
      LLVMValueRef v = s->copied.data[i];
      if ((size_t)vmap_get(&s->root_of, v) != k + 1 || vmap_get(&s->loop_of, v) != l) continue;
      run_span(g, l, &e, pointer_operand(v), access_size(g, v), &a, &b);
      lo = lo ? ir_call_intrinsic(g->b, "llvm.umin", &g->i64, 1, (LLVMValueRef[]){lo, a}, 2) : a;
      hi = hi ? ir_call_intrinsic(g->b, "llvm.umax", &g->i64, 1, (LLVMValueRef[]){hi, b}, 2) : b;
    }
    LLVMBasicBlockRef yes, no, join; /* the object's own stores are updates in place */
    rev_diamond(g, run_apart(g, l, &e, k, lo, hi), &yes, &no, &join);
    LLVMPositionBuilderAtEnd(g->b, yes);
    LLVMValueRef args[5] = {LLVMConstInt(i32, k, 0), LLVMConstInt(i32, s->roots.len, 0), lo, hi, LLVMConstInt(i32, first, 0)};
    LLVMTypeRef params[5] = {i32, i32, g->i64, g->i64, i32};
    LLVMValueRef made = ir_call_named(g->b, "__parad_rt_run_copy", LLVMFunctionType(i32, params, 5, 0), args, 5);
    LLVMBasicBlockRef made_in = LLVMGetInsertBlock(g->b);
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, no);
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, join);
    LLVMValueRef phi = LLVMBuildPhi(g->b, i32, "run.copied");
    LLVMValueRef vals[2] = {made, LLVMConstInt(i32, 0, 0)};
    LLVMBasicBlockRef from[2] = {made_in, no};
    LLVMAddIncoming(phi, vals, from, 2);
    LLVMValueRef copied = LLVMBuildICmp(g->b, LLVMIntNE, phi, LLVMConstInt(i32, 0, 0), "run.copied");
    set_run_flags(g, l, k, copied);
    word = LLVMBuildOr(g->b, word, LLVMBuildShl(g->b, LLVMBuildZExt(g->b, copied, g->i64, ""), LLVMConstInt(g->i64, bit++, 0), ""), "");
  }
  free(e.first);
  free(e.last);
  vmap_put(&s->run_word, l, word);
}

LLVMValueRef shared_run_word(RevGen *g, Loop *l) { return g->shared ? vmap_get(&g->shared->run_word, l) : NULL; }

void shared_set_run_copies(RevGen *g, Loop *l, LLVMValueRef word) {
  struct SharedMemory *s = g->shared;
  if (g->phase == PLANNING) return;
  unsigned bit = 0;
  for (size_t k = 0; k < s->roots.len; k++)
    if (run_copies(g, l, k)) {
      LLVMValueRef b = LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, word, LLVMConstInt(g->i64, bit++, 0), ""), LLVMConstInt(g->i64, 1, 0), "");
      set_run_flags(g, l, k, LLVMBuildICmp(g->b, LLVMIntNE, b, LLVMConstInt(g->i64, 0, 0), "run.copied"));
    }
}

/* aug, as the loop of streamed outputs is about to start: which of them the runtime is to copy as it ends,
 * where none of the run's other stores may write their ranges, into their flags (set for the call). */
static void plan_outputs(RevGen *g, Loop *l) {
  struct SharedMemory *s = g->shared;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
  RunEnds e = {0};
  for (size_t k = 0; s->out_loop && k < s->roots.len; k++) {
    if (s->out_loop[k] != l || !copy_needed(g, k)) continue;
    LLVMValueRef st = NULL, lo, hi;
    for (size_t i = 0; i < s->copied.len && !st; i++) st = copied_root(g, s->copied.data[i]) == k + 1 ? shared_copied_access(g, s->copied.data[i]) : NULL;
    run_span(g, l, &e, LLVMGetOperand(st, 1), access_size(g, st), &lo, &hi);
    LLVMValueRef apart = run_apart(g, l, &e, k, lo, hi); /* the object's own store is the output's */
    LLVMValueRef args[5] = {LLVMConstInt(i32, k, 0), LLVMConstInt(i32, s->roots.len, 0), lo, hi, LLVMBuildZExt(g->b, apart, i32, "")};
    LLVMTypeRef params[5] = {i32, i32, g->i64, g->i64, i32};
    LLVMValueRef will = ir_call_named(g->b, "__parad_rt_output_copy", LLVMFunctionType(i32, params, 5, 0), args, 5);
    set_flags(g, k, LLVMBuildICmp(g->b, LLVMIntNE, will, LLVMConstInt(i32, 0, 0), "copied"));
  }
  free(e.first);
  free(e.last);
}

void shared_outputs_at(RevGen *g, LLVMBasicBlockRef bb) {
  struct SharedMemory *s = g->shared;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
  for (size_t k = 0; s && s->out_loop && k < s->roots.len; k++) {
    if (!s->out_loop[k] || loop_exit(g, s->out_loop[k]) != bb || !copy_needed(g, k)) continue;
    LLVMValueRef args[2] = {LLVMConstInt(i32, k, 0), LLVMConstInt(i32, s->roots.len, 0)};
    LLVMTypeRef params[2] = {i32, i32};
    ir_call_named(g->b, "__parad_rt_output_copy_made", LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 2, 0), args, 2);
  }
}

void shared_inputs_after_block(RevGen *g, LLVMBasicBlockRef bb) {
  struct SharedMemory *s = g->shared;
  if (!s || !s->copied.len) return;
  find_inputs(g, bb);
  for (size_t i = 0; i < g->loops.len; i++)
    if (g->loops.data[i].preheader == bb && g->loops.data[i].exit_iv) {
      test_runs(g, &g->loops.data[i], aug_value, true, aug_input);
      copy_run(g, &g->loops.data[i]);
      plan_outputs(g, &g->loops.data[i]);
    }
}

void shared_inputs_enter_loop(RevGen *g, Loop *l) {
  struct SharedMemory *s = g->shared;
  if (s && s->copied.len && l->exit_iv) test_runs(g, l, rv, false, rev_input);
}
