/* State of the reverse generator while it writes the pair of functions for one function and activity
 * pattern; shared by its files:
 *   rev_function.c  the pair as a whole: planning, the augmented forward function, the reverse function
 *   rev_values.c    how each primal value the reverse sweep needs gets there: recomputed, or captured in
 *                   the frame or in a block's tape record; adjoint slots
 *   rev_tape.c      tape records in IR: writing and reading them
 *   rev_inst.c      adjoints of arithmetic, casts, aggregates, select
 *   rev_memory.c    loads, stores, stack and heap memory, memcpy/memset
 *   rev_window.c    a stencil's adjoints summed in registers along its loop
 *   rev_call.c      calls: math rules, module functions, custom gradients
 *   rev_replay.c    which way a block was entered, from its branches' conditions recomputed
 *   rev_iteration.c values several blocks of an iteration need, recorded once at its latch
 *
 * The augmented forward function ("aug") computes the primal and the shadows of pointers, and records
 * on the tape what the reverse needs. The reverse function ("rev") takes the adjoint of the result,
 * reads the tape back, walks the blocks backwards and returns the adjoints of the active scalar
 * parameters. Both live as long as the module; a call of the differentiated function inside other
 * differentiated code becomes a call of aug in the forward sweep and of rev in the reverse sweep.
 *
 * Where values live in the reverse sweep (see rev_values.c):
 *   constants and globals        as they are
 *   cheap integer and address    recomputed at the start of the reverse block that needs them
 *   computations
 *   anything else defined in a   captured once per call, in the frame: slots of aug, written to the
 *   block that runs once         tape as one record when aug returns, read back when rev starts
 *   anything else defined in a   captured at the end of the block that needs it, in that block's tape
 *   loop                         record, one per execution of the block (or once per iteration at the
 *                                loop's latch, when several blocks of the iteration need it: rev_iteration.c)
 * A block with several predecessors also captures which one it was entered from, unless the branches
 * that chose it can be replayed in the reverse sweep (rev_replay.c). */
#ifndef PARAD_REVERSE_INTERNAL_H
#define PARAD_REVERSE_INTERNAL_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ad/ad.h"
#include "ad/paradigms.h"
#include "analysis/activity.h"
#include "analysis/calls.h"
#include "ir/cfg.h"
#include "ir/ir.h"
#include "ir/util.h"
#include "ir/valuemap.h"
#include "reverse/reverse.h"

/* What the reverse sweep needs of an original value: its primal value, or its shadow (pointers), or
 * (for a block) the index of the predecessor it was entered from, or (for a call with a custom gradient)
 * the tape its augmented function returned. */
typedef enum { NEED_PRIMAL = 0, NEED_SHADOW = 1, NEED_PRED = 2, NEED_TAPE = 3 } NeedKind;

typedef struct {
  LLVMValueRef value; /* an original value; for NEED_PRED, the block as a value */
  NeedKind kind;
} Item;

/* An item captured at the end of a block: into a frame slot, or into the block's record. */
typedef struct {
  Item item;
  LLVMBasicBlockRef block; /* original block at whose end it is captured */
  int frame_slot;          /* its slot in the frame, or -1 when it goes into the block's record */
  unsigned offset;         /* byte offset in the frame record or the block record */
  bool below;              /* read from the record right below the block's, its predecessor's, which
                              captures it at `offset` (the block does not record it again) */
} Capture;

typedef VEC(Capture) CaptureList;

/* A natural loop (entered only through its header). Two things make its reverse cheaper:
 *   - a counted loop (its header has one predecessor outside, one inside, and a phi iv = [start,
 *     preheader], [iv + step, latch] for constants start and step): the reverse sweep runs iv
 *     backwards instead of recording it and the way around the loop;
 *   - values defined before the loop and needed in its reverse are captured once where the loop exits,
 *     not once per iteration, and carried through a slot while the reverse sweep is in the loop. */
typedef struct {
  LLVMValueRef phi, start, step;
  LLVMValueRef slot;     /* rev: its value in the iteration being reversed */
} Induction;

struct Loop {
  LLVMBasicBlockRef header;
  bool *body;            /* per block position in cfg */
  LLVMBasicBlockRef preheader, latch; /* counted loops */
  VEC(Induction) ivs;    /* counted loops: every induction variable; the first tells the first iteration */
  VEC(Item) hoisted;     /* values carried through slots */
  LLVMValueRef *slots;   /* rev: one per hoisted value */
  /* a trip count known on entry: the loop leaves only when exit_iv's next value is limit (else NULL), or,
   * with `ordered`, only when it has reached or passed limit (going on while next < limit, or <= with
   * `inclusive`, for a step of 1; > or >= for a step of -1; compared signed or not) */
  Induction *exit_iv;
  LLVMValueRef limit;
  bool limit_narrowed;   /* the test is on exit_iv's next value truncated to limit's type */
  bool limit_current;    /* the test is on exit_iv's value in the iteration (it leaves after iv == limit:
                            clang's form of a loop counting down to 0) */
  bool ordered, inclusive, is_signed;
  /* records reserved at once (rev_bulk.c): bytes per iteration (0: not done for this loop), those left
   * in a run that reads its copied loads from a region's copies, the cursor's slot in aug or rev */
  unsigned bulk_bytes, bulk_kept;
  LLVMValueRef cursor;
  VEC(Item) shared;      /* values several blocks of an iteration need, recorded at the latch (rev_iteration.c) */
  LLVMValueRef *shared_slots; /* rev: one per shared value, written by the latch's reverse */
  int ends_known;        /* loop_ends_recomputed's answer: 0 not asked, 1 no, 2 yes */
  int short_known;       /* loop_short_constant's, the same way */
};

typedef struct Loop Loop;

typedef struct {
  CaptureList captures; /* what this block captures at its end (frame and record alike) */
  unsigned record_bytes; /* size of its tape record (0: none) */
  VEC(Item) needs;       /* what its reverse needs, in the order it was first asked for */
  Loop *bulk;            /* the loop whose records are reserved at once, with this block's among them */
  unsigned bulk_offset;  /* this block's record within the loop's record of one iteration */
  /* A block entered only from one block P, with nothing between P's record and its own: P makes room
   * for both at once, and the block reads what P records instead of recording it again. */
  bool follows;          /* P's record is right below this block's */
  bool followed;         /* P: a block follows it */
  unsigned headroom;     /* P: the largest record of a block that follows it (0 where it records nothing) */
  unsigned copied_bytes; /* the record's last bytes: loads read back from a region's copy, where they are */
} BlockPlan;

typedef struct RevGen {
  AdModule *ad;
  LLVMValueRef orig;
  const char *pattern;   /* one letter per parameter: 'c', 'd'/'n' (pointer with shadow), 'o' (active scalar) */
  bool ret_active;       /* the result is an active float: rev takes its adjoint */
  bool ret_shadow;       /* the result is a pointer with a shadow: aug returns both */
  /* Loads of arguments' memory and globals are repeated in the reverse sweep instead of recorded: the
   * pair serves a gradient whose reverse sweep follows its forward sweep directly, and the function
   * writes only memory it allocated itself (writes_only_own_memory). */
  bool reload_inputs;
  unsigned long long unwritten, unwritten_slots, unwritten_held, unwritten_globals; /* see PairKind */
  /* The pair serves a gradient whose reverse sweep follows its forward sweep directly: a noalias
   * parameter's memory that nothing writes after a load or a call holds there what it holds in the reverse
   * sweep (analysis/unwritten.h unwritten_after); known_after: per load, 1 + whether so. */
  bool top_level;
  ValueMap known_after;
  struct Dependence *dependence; /* the function's loops for unwritten_after, made on the first question */
  LLVMValueRef reload_scope; /* rev: the alias scope of the loads repeated from such memory (made on the first) */
  bool parallel;         /* see PairKind */
  bool region_body;      /* see PairKind */
  bool task_body;        /* see PairKind */
  bool one_thread;       /* see PairKind */
  unsigned long long redirected; /* see PairKind */
  unsigned long long own;        /* see PairKind */
  struct SharedMemory *shared; /* rev_shared.c */
  struct Redirects *redirects; /* rev_redirect.c */
  struct Snapshots *snapshots; /* rev_snapshot.c */
  struct Windows *windows;     /* rev_window.c */
  const Activity *act;
  Cfg cfg;
  BlockPlan *plan;       /* per block position in cfg */
  VEC(Loop) loops;
  unsigned frame_slots;  /* number of captures into the frame */
  unsigned frame_bytes;
  LLVMContextRef ctx;
  LLVMTypeRef ptr_type, i64;

  /* Which function is being written. While planning, the reverse sweep is written into a scratch
   * function and thrown away: only the needs it discovers are kept. */
  enum { PLANNING, WRITING_AUG, WRITING_REV } phase;
  LLVMBuilderRef b;
  LLVMValueRef tape;     /* the current tape, loaded once at the entry of aug and of rev */
  LLVMValueRef tape_top, tape_end, tape_base; /* local copies of its fields (rev_tape.c) */

  /* aug */
  LLVMValueRef aug;
  ValueMap vmap;         /* original value or block -> its copy in aug */
  ValueMap exits;        /* original block -> the block of aug that ends its copy (tape writes split blocks) */
  ValueMap smap;         /* original pointer -> its shadow in aug */
  ValueMap tapemap;      /* original call with a custom gradient -> the tape its augmented function gave */
  ValueMap aug_slot;     /* item key -> aug stack slot holding its latest value (for loop exits) */
  LLVMValueRef *frame_alloca; /* per frame slot, in aug */
  VEC(LLVMValueRef) phis;     /* original phis of aug to fill */
  LLVMValueRef ret_index_slot; /* aug: which return was taken, when there are several */
  LLVMValueRef chain_open;     /* aug: whether the caller gave the chain (omp_quiet_forks.c), or NULL */

  /* rev */
  LLVMValueRef rev;
  LLVMBasicBlockRef cur;      /* original block whose reverse is being written */
  ValueMap rblock;            /* original block -> its reverse block */
  ValueMap frame_value;       /* capture key -> value read from the frame record */
  ValueMap local;             /* item key -> value materialised in the current reverse block */
  ValueMap adj;               /* original value -> its adjoint slot in rev */
  ValueMap lanes;             /* integer carrying floats' bits -> its adjoint type */
  ValueMap record_choice;     /* float -> whether it is recorded rather than recomputed (rev_values.c) */
  LLVMValueRef scratch;       /* planning: the scratch function */
  LLVMValueRef solo;          /* rev of a parallel pair: whether the team has one thread (no atomics needed) */
  int defers_tasks;           /* omp_reverse.c: its tasks' adjoints run as tasks (2) or not (1); 0: not asked */
  ValueMap replayed;          /* block -> 1 + whether its predecessor is replayed (rev_replay.c) */
  int errors;
} RevGen;

/* ---- rev_values.c ---- */
const void *item_key(LLVMValueRef v, NeedKind kind);
/* The primal value / shadow of an original value in the reverse sweep, at the current reverse block.
 * While planning, records the need and returns a placeholder. */
LLVMValueRef rv(RevGen *g, LLVMValueRef orig);
LLVMValueRef rs(RevGen *g, LLVMValueRef orig);
/* The adjoint type of a primal type: floats and their vectors and aggregates; NULL where there is none. */
LLVMTypeRef adj_type(LLVMTypeRef t);
/* The adjoint type of an original value: adj_type of its type, or for an integer that carries floats'
 * bits, the lanes rev_lanes.c found for it. */
LLVMTypeRef adj_type_of(RevGen *g, LLVMValueRef v);
/* Reads the adjoint of an original value and resets it to zero (its definition is being reversed). */
LLVMValueRef adj_take(RevGen *g, LLVMValueRef orig);
/* Adds d to the adjoint of an original value (nothing for constants and inactive values). */
void adj_add(RevGen *g, LLVMValueRef orig, LLVMValueRef d);
/* The slot of an original value's adjoint (created zero at the entry of rev). */
LLVMValueRef adj_slot(RevGen *g, LLVMValueRef orig);
/* Once rev is written: a slot used in one block that no cycle passes through is zeroed at that block's
 * start instead of the entry's (mem2reg's cheap case; see rev_values.c). */
void adj_slots_localise(RevGen *g);
/* The tape a custom augmented function returned, for the reverse sweep. */
LLVMValueRef rt(RevGen *g, LLVMValueRef call);
/* The index of the predecessor a block was entered from (captured in the forward sweep), and its type:
 * the narrowest of i8, i16 and i32 that holds the block's predecessors' indices. */
LLVMValueRef rev_pred_index(RevGen *g, LLVMBasicBlockRef bb, LLVMValueRef record);
/* Item it as block bb's reverse gets it (its record at `record`), built at the builder. */
LLVMValueRef rev_materialise(RevGen *g, LLVMBasicBlockRef bb, Item it, LLVMValueRef record);
/* The position of item it among items[0..n), or -1. */
long item_index(const Item *items, size_t n, Item it);
LLVMTypeRef rev_pred_type(RevGen *g, LLVMBasicBlockRef bb);
/* Lays a block's record out again packed (tape_packed_bytes), widest slots first: its bytes, and in *align
 * the widest slot's alignment. With kept, the loads a run may read from copies (capture_copied) last, so
 * that a run reading them there leaves them out: *kept, the bytes before them. */
unsigned plan_pack(RevGen *g, BlockPlan *p, unsigned *align, unsigned *kept);
/* Whether c is a load that a run may read from a region's or task's copy of its input. */
bool capture_copied(RevGen *g, const Capture *c);
/* Records that block bb's reverse needs item (v, kind). */
void note_need(RevGen *g, LLVMBasicBlockRef bb, LLVMValueRef v, NeedKind kind);
/* Whether an item is captured (recorded) rather than recomputed or carried, in block bb. */
bool item_captured(RevGen *g, LLVMBasicBlockRef bb, Item it);
LLVMBasicBlockRef item_def_block(RevGen *g, Item it);
/* The type an item has in the sweeps: a pointer for shadows and tapes, a block's predecessor index type. */
LLVMTypeRef item_type(RevGen *g, Item it);
/* Plans where each need of a block lives; fills g->plan and the frame layout. */
void plan_layout(RevGen *g);
/* After plan_bulk: the blocks whose records follow their predecessor's (BlockPlan.follows). */
void plan_followers(RevGen *g);
/* After plan_followers: loads read back from a region's copy laid out last in their block's record
 * (BlockPlan.copied_bytes), and the record's size in a run: without them where they are all copied. */
void plan_copied_last(RevGen *g);
/* After plan_bulk: the other blocks' records packed (plan_pack), padded to 8 bytes. */
void plan_pack_records(RevGen *g);
/* Reserves (or, reversing, releases) such a block's record, of the size it has in this run. */
LLVMValueRef record_move(RevGen *g, BlockPlan *p, bool reserving);
/* At the start of a reverse block, after its record was read: materialises every need of the block. */
void materialise_needs(RevGen *g, LLVMBasicBlockRef orig_block, LLVMValueRef record_ptr);
bool writes_only_own_memory(LLVMValueRef fn);
/* The object an address points into: addresses are computed from it by getelementptr and casts. */
LLVMValueRef rev_root_of(LLVMValueRef p);
/* Whether an instruction is cheap enough to recompute in the reverse sweep instead of recording it. */
bool recomputable(LLVMValueRef inst);
/* Whether a load reads memory that holds the same values in the reverse sweep. */
bool reloadable(RevGen *g, LLVMValueRef v);
/* Whether a value is recomputed in the reverse sweep rather than recorded (cheap, or a repeatable load). */
bool rederived(RevGen *g, LLVMValueRef v);
/* Whether bb's reverse has v without recording anything for it: v is a constant or an argument, a
 * counted induction variable of a loop around bb, a value of a block that runs once (in the frame), or
 * cheap arithmetic or a repeatable load of such values, defined where it dominates bb. floats: whether
 * floating-point values may be among them; *budget bounds the instructions looked at. */
bool rev_free_at(RevGen *g, LLVMValueRef v, LLVMBasicBlockRef bb, bool floats, unsigned *budget);
/* A floating-point value or comparison (an instruction). */
bool rev_floating(LLVMValueRef v);
/* Whether a copy of instruction v computes v's value to the bit: no fast-math flag lets the optimiser
 * rearrange one copy and not the other (no-signed-zeros aside: it never changes a comparison). */
bool rev_same_bits(LLVMValueRef v);
/* Whether v is a load made in a loop, or computed from one within a few instructions (phis not followed):
 * data that may change from one iteration to the next (a CSR row's extent), unlike constants, counters
 * and what was read once. */
bool rev_read_in_loop(RevGen *g, LLVMValueRef v);
/* Marks a load repeated in the reverse sweep for the optimiser (see rev_scope_reloads). */
void scope_reload(RevGen *g, LLVMValueRef load);

/* ---- rev_replay.c ---- */
/* Planning a block with several predecessors: whether the reverse sweep finds the one it was entered
 * from by replaying the branches that led there (then the needs for that are noted, and nothing is
 * recorded for it). */
bool replay_plan(RevGen *g, LLVMBasicBlockRef bb);
/* Writing its reverse: when replay_plan said so, the replay, at the builder, going on to edges[k] for
 * predecessor k (cfg.preds order); false otherwise (the caller reads the recorded index). */
bool replay_dispatch(RevGen *g, LLVMBasicBlockRef bb, LLVMBasicBlockRef *edges);

/* ---- rev_lanes.c ---- */
/* Finds the lanes of the integers that carry floats' bits (g->lanes); reports what it cannot tell. */
void lanes_analyse(RevGen *g);
/* The reverse of a bit-moving integer operation or a bitcast, given the adjoint d of its result. */
void rev_bits(RevGen *g, LLVMValueRef inst, LLVMValueRef d);

/* ---- rev_loops.c ---- */
void find_loops(RevGen *g);
void free_loops(RevGen *g);
bool in_loop(RevGen *g, Loop *l, LLVMBasicBlockRef bb);
/* The induction variable of a counted loop v is, when block bb lies in that loop; else NULL. */
Induction *counted_iv_in(RevGen *g, LLVMValueRef v, LLVMBasicBlockRef bb);
/* Whether v is the same in every iteration of l (defined outside it, or not an instruction). */
bool loop_invariant(RevGen *g, Loop *l, LLVMValueRef v);
/* v is a linear function of l's induction variables, built from values the loop does not change. The
 * narrow arithmetic under an extension may wrap: such an address is linear, as the runtime's notes of
 * strides take it, but not always in the iterations; _exact: it cannot, so that the address moves the
 * same way in every iteration and a run's first and last addresses bound all of its. */
bool loop_linear(RevGen *g, Loop *l, LLVMValueRef v, int depth);
bool loop_linear_exact(RevGen *g, Loop *l, LLVMValueRef v);
/* How much integer or address v moves from one iteration of l to the next, where that is a constant. */
bool loop_constant_step(RevGen *g, Loop *l, LLVMValueRef v, long long *step, int depth);
/* Index of v among l's induction variables, or -1. */
int loop_iv_index(Loop *l, LLVMValueRef v);
/* v with the induction variables at the values `at` (one per iv), the loop's invariants from `value`
 * (aug_value, rv), built at the builder. */
LLVMValueRef loop_evaluate(RevGen *g, Loop *l, LLVMValueRef v, LLVMValueRef *at, LLVMValueRef (*value)(RevGen *, LLVMValueRef));
/* v rebuilt at g's builder on operands ops, without its poison flags: evaluated at an iteration the program
 * may skip (a run's ends, a monotone span's corners) */
LLVMValueRef loop_rebuild(RevGen *g, LLVMValueRef v, LLVMValueRef *ops);
/* The innermost loop around a block, or NULL. */
Loop *loop_innermost(RevGen *g, LLVMBasicBlockRef bb);
/* The loop directly around l, or NULL. */
Loop *loop_around(RevGen *g, Loop *l);
/* The induction variables of l in its first iteration and, given the trip count, its last. */
void loop_first_and_last(RevGen *g, Loop *l, LLVMValueRef trip, LLVMValueRef *first, LLVMValueRef *last,
                         LLVMValueRef (*value)(RevGen *, LLVMValueRef));
/* A loop of at most 16 iterations between constants whose blocks all run in every iteration (it branches
 * only to go round, or round a loop like it inside). */
bool loop_short_constant(RevGen *g, Loop *l);
/* [lo, hi): the addresses an access of `size` bytes touches from `first` to `last` (either the lower). */
void address_span(RevGen *g, LLVMValueRef first, LLVMValueRef last, unsigned size, LLVMValueRef *lo, LLVMValueRef *hi);
/* The trip count (an i64) of a loop with exit_iv, from the values `value` gives (aug_value, rv). */
LLVMValueRef loop_trip(RevGen *g, Loop *l, LLVMValueRef (*value)(RevGen *, LLVMValueRef));
/* Whether the reverse sweep, entering the loop from where it exits, recomputes its trip count and its
 * induction variables' last values from their starts and the limit (else they are recorded). */
bool loop_ends_recomputed(RevGen *g, Loop *l);
/* The value an induction variable of l had in the loop's last iteration, in the reverse of the block the
 * loop exits to (while planning, notes what that needs). */
LLVMValueRef loop_iv_last(RevGen *g, Loop *l, Induction *iv);
/* An induction variable's value in the last of `trip` iterations (an i64) from its start. */
LLVMValueRef loop_iv_at_last(RevGen *g, Induction *iv, LLVMValueRef start, LLVMValueRef trip);
/* The loop whose header bb is, when it is counted. */
Loop *counted_header(RevGen *g, LLVMBasicBlockRef bb);
/* The loop that carries item it through a slot into block bb, or NULL. */
Loop *hoisting_loop(RevGen *g, Item it, LLVMBasicBlockRef bb, size_t *index);
/* After planning the blocks: moves captures of loop-invariant values out of loops. */
void plan_hoisting(RevGen *g);

/* ---- rev_iteration.c ---- */
/* After hoisting: values that several blocks of a loop iteration would record, recorded at its latch. */
void plan_iteration_shares(RevGen *g);
/* The loop whose latch records item it for block bb (any block, when bb is NULL), or NULL; *index: its
 * slot. NULL for the latch itself, which records it. */
Loop *iteration_share(RevGen *g, Item it, LLVMBasicBlockRef bb, size_t *index);
/* rev's entry: the slots of the shared values. */
void iteration_slots(RevGen *g);
/* In the reverse of bb, after its needs (its record at `record`): a latch keeps its loop's shared values
 * in their slots. */
void iteration_keep(RevGen *g, LLVMBasicBlockRef bb, LLVMValueRef record);

/* ---- rev_monotone.c ---- */
/* The loop whose runs bound address p of an access in block bb of loop l (its innermost) by corners: l,
 * or the loop around the short loops l is among, where p is monotone in the loop's iteration and in the
 * counters of the short loops, and bb runs in every iteration (NULL if none). */
Loop *loop_monotone_run(RevGen *g, Loop *l, LLVMValueRef p, LLVMBasicBlockRef bb);
/* [lo, hi): the addresses such an access of `size` bytes touches in a run of `run`, its counters from
 * `first` to `last`, the run's invariants from `value`. */
void loop_monotone_span(RevGen *g, Loop *run, LLVMValueRef p, unsigned size, LLVMValueRef *first, LLVMValueRef *last,
                        LLVMValueRef (*value)(RevGen *, LLVMValueRef), LLVMValueRef *lo, LLVMValueRef *hi);

/* ---- rev_shared.c: adjoints of shared memory in a region's function ---- */
void shared_analyse(RevGen *g);
void shared_free(RevGen *g);
void shared_aug_entry(RevGen *g);                     /* aug entry: the ranges start empty */
void shared_aug_after_block(RevGen *g, LLVMBasicBlockRef bb); /* aug: the block's accesses noted (a loop's
                                                                 before it runs) */
/* Where a thread's next chunk of a worksharing loop starts (rev_shared.c "chunks"): aug, at the start of the
 * block; rev, after the block's reverse. */
void shared_aug_chunk_start(RevGen *g, LLVMBasicBlockRef bb);
void shared_rev_chunk_start(RevGen *g, LLVMBasicBlockRef bb);
void shared_rev_enter_loop(RevGen *g, Loop *l);       /* rev, entering a loop's reverse: decided per run */
void shared_aug_exit(RevGen *g);                      /* aug, before returning: the ranges to the runtime */
void shared_rev_entry(RevGen *g);                     /* rev entry: this thread's own parts, the sums */
void shared_rev_version(RevGen *g);                   /* rev, written: its copies for the common plans */
/* The adjoint d of a load added into its shadow, plainly, atomically or into a sum; false when the
 * load is not one of a shared object the analysis knows. */
bool shared_accumulate(RevGen *g, LLVMValueRef load, LLVMValueRef shadow, LLVMValueRef d, unsigned align,
                       void (*plain)(RevGen *, LLVMValueRef, LLVMValueRef, unsigned),
                       void (*atomic)(RevGen *, LLVMValueRef, LLVMValueRef, LLVMValueRef, unsigned, LLVMValueRef));
/* The sums added into memory: at the reverse sweep's end (at_end) and before each barrier. */
void shared_flush(RevGen *g, bool at_end);
/* An i64 slot's value made min or max ("llvm.umin", "llvm.umax") of itself and v: a range widened. */
void rev_widen(RevGen *g, LLVMValueRef slot, LLVMValueRef v, const char *minmax);
/* Memory only this thread reaches: its own stack slots and heap blocks. */
bool rev_thread_private(LLVMValueRef p);
/* Such memory that holds no pointer to memory other threads reach (rev_memory.c): a callee given only
 * such pointers (and reaching no active global) reaches only the thread's own. */
bool rev_thread_own(AdModule *ad, LLVMValueRef p);
/* Whether a call of the program's (or through a pointer) may store a pointer: whether one of its callees
 * (every function of the module the pointer may hold) may; with `fills`, a memset that may null one counts. */
bool rev_call_may_store_pointers(AdModule *ad, LLVMValueRef call, bool fills);
/* Whether p is, through offsets, a parameter the caller said points into its thread's own memory
 * (PairKind.own). */
bool rev_own_param(RevGen *g, LLVMValueRef p);
/* Sets kind's unwritten bits for the callee's parameters from the call's arguments (argument first_arg
 * is parameter first_param), and for the globals the callee reads itself: memory unwritten here is
 * unwritten there. */
void rev_unwritten_args(RevGen *g, LLVMValueRef call, LLVMValueRef callee, unsigned first_arg, unsigned first_param,
                        PairKind *kind);
/* Tells the optimiser that no store of the finished reverse function writes the memory its repeated loads
 * read (rev_values.c). */
void rev_scope_reloads(RevGen *g);

/* ---- rev_redirect.c ---- */
/* A region's plan per redirected parameter, in thread-local memory (runtime/omp.c): the hull the callee
 * read (cleared by the caller), then whether the thread's own part is all it read (1, else 0), the own
 * part (its start in the shadow's addresses, its length) and the private buffer (the shadow address it
 * mirrors, its length, the buffer) the caller's plan has. */
enum { REDIRECT_LO, REDIRECT_HI, REDIRECT_WHOLE, REDIRECT_OWN_LO, REDIRECT_OWN_SPAN, REDIRECT_BUFFER_LO, REDIRECT_BUFFER_LEN,
       REDIRECT_BUFFER, REDIRECT_FIELDS };
enum { MAX_REDIRECTS = 4 };
/* What a callee reads through a redirected parameter, a slot each: the parameter's own memory (field -1),
 * or, where the parameter is a record of pointers, the memory each pointer read from it points to (field:
 * the pointer's offset in the record); elem: the size of the floats read there. */
typedef struct {
  long long field;
  unsigned char elem;
} RedirectSlot;
/* The slots of fn's parameter i in order (at most max, *n of them): false where the parameter is not only
 * read, as floats of one type per slot, through address arithmetic on it (or on its record's pointers). */
bool redirect_param_slots(AdModule *ad, LLVMValueRef fn, unsigned i, RedirectSlot *out, unsigned max, unsigned *n);
/* The address of a field of the thread's j-th slot, at the builder. */
LLVMValueRef redirect_field(RevGen *g, unsigned j, unsigned field);
/* The j-th slot's hull emptied, before a call whose callee widens it. */
void redirect_clear(RevGen *g, unsigned j);
void redirect_analyse(RevGen *g);
void redirect_free(RevGen *g);
void redirect_aug_entry(RevGen *g);
void redirect_aug_after_block(RevGen *g, LLVMBasicBlockRef bb); /* aug, at the end of a block's copy */
void redirect_aug_exit(RevGen *g);
void redirect_rev_entry(RevGen *g);
/* A redirected pair's calls that pass an address on (to a further helper): which arguments are redirected;
 * aug, around the call (the callee's hulls into the pair's); rev, before its reverse (the plan passed on). */
unsigned long long redirect_nested_params(RevGen *g, LLVMValueRef call);
void redirect_aug_call(RevGen *g, LLVMValueRef call, bool after);
void redirect_rev_call(RevGen *g, LLVMValueRef call);
/* The adjoint d of a read through a redirected parameter added as the caller's plan says; false for any
 * other read. */
bool redirect_accumulate(RevGen *g, LLVMValueRef load, LLVMValueRef shadow, LLVMValueRef d, unsigned align,
                         void (*plain)(RevGen *, LLVMValueRef, LLVMValueRef, unsigned),
                         void (*atomic)(RevGen *, LLVMValueRef, LLVMValueRef, LLVMValueRef, unsigned, LLVMValueRef));
/* The region's side (rev_shared.c): which of a call's parameters are redirected (PairKind.redirected); aug,
 * around the call (the callee's slots cleared before, their hulls noted after); rev, before the callee's
 * reverse function is called (the plan into its slots). Both do the same for a redirected pair's calls that
 * hand an address on (redirect_aug_call, redirect_rev_call). */
unsigned long long shared_redirected(RevGen *g, LLVMValueRef call);
void shared_aug_call(RevGen *g, LLVMValueRef call, bool after);
void shared_rev_call(RevGen *g, LLVMValueRef call);
/* aug, at a region's memset or memcpy of shared memory: the bytes it writes and reads noted. */
void shared_aug_copy(RevGen *g, LLVMValueRef call);

/* Whether a load's adjoint, in a region's function, goes where it would go in any iteration of loop l:
 * not summed in a register, and decided plain or atomic once per run of l (or always the same way). */
bool shared_decided_per_run(RevGen *g, LLVMValueRef load, Loop *l);
/* rev: the slot of loop l's flag "every read this run the thread's own" (NULL if none), and the narrowing
 * of its flags by a further run-long condition (a window's check). */
LLVMValueRef shared_run_slot(RevGen *g, Loop *l);
/* Whether the region's plan reads load back from a copy of its object where it can (in any block). */
bool shared_copies(RevGen *g, LLVMValueRef load);
/* A task's or region's loads read from a copy of its inputs (rev_shared.c): whether the load's value,
 * needed in block bb, may be read from the copy (a task's: in runs of its loop inside the inputs); for a
 * capture in a block's record, the slot saying whether it is (NULL where the capture is always recorded,
 * and while planning); and, rev, the address in the copy of the load's address p. */
bool shared_copied_in(RevGen *g, LLVMValueRef load, LLVMBasicBlockRef bb);
void shared_inputs_after_block(RevGen *g, LLVMBasicBlockRef bb); /* aug: the inputs found, loops' runs tested */
void shared_inputs_enter_loop(RevGen *g, Loop *l);                /* rev: a loop's run tested again */
LLVMValueRef shared_copy_flag(RevGen *g, const Capture *c);
LLVMValueRef shared_copy_address(RevGen *g, LLVMValueRef load, LLVMValueRef p);
/* The access a copied value is read back through: the load, or the store of a region's streamed output
 * (its stored value, read back from the copy made as its loop ends); aug, at the start of a block, the
 * copies of streamed outputs whose loop ends there. */
LLVMValueRef shared_copied_access(RevGen *g, LLVMValueRef v);
void shared_outputs_at(RevGen *g, LLVMBasicBlockRef bb);
void shared_narrow_run(RevGen *g, Loop *l, LLVMValueRef cond);
/* A region's streamed inputs, copied as a run of l starts (rev_shared.c): whether l's runs may; aug, at
 * the end of l's preheader, the word saying which objects the run copied (kept with its records); rev,
 * entering l, the flags from that word. */
bool shared_runs_copy(RevGen *g, Loop *l);
/* A gather base + scale * index whose index is read from an array at consecutive elements, in the same
 * block, in every iteration of the innermost loop around it (a sparse product's p[col[k]]), or at a
 * constant place in consecutive blocks of a few elements (an element's four nodes, nodelist[4 e + c]):
 * the index's load, the base, the element size, whether the index is widened signed, and that loop; and
 * the address that walks the index array one iteration's elements at a time (the index's own, or its
 * block's start) with the bytes it steps by (the index's size, or the block's). */
typedef struct {
  LLVMValueRef index, base;
  long long scale;
  bool is_signed;
  Loop *loop;
  LLVMValueRef walk;
  unsigned walk_size;
} IndexedGather;
bool indexed_gather(RevGen *g, LLVMValueRef address, LLVMBasicBlockRef block, IndexedGather *out);
LLVMValueRef shared_run_word(RevGen *g, Loop *l);
void shared_set_run_copies(RevGen *g, Loop *l, LLVMValueRef word);

/* ---- rev_snapshot.c: serial loops' reads read back from a copy made as the loop ends ---- */
void snapshot_analyse(RevGen *g);  /* after shared_analyse */
void snapshot_prune(RevGen *g);    /* planning, after the walk: only the reads the reverse sweep needs */
void snapshot_free(RevGen *g);
/* Whether the load's value, needed in block bb, is read from its loop's snapshot; rev: that read, at the
 * load's address p in the reverse sweep. */
bool snapshot_read_in(RevGen *g, LLVMValueRef load, LLVMBasicBlockRef bb);
LLVMValueRef snapshot_load(RevGen *g, LLVMValueRef load, LLVMValueRef p);
bool snapshot_exit(RevGen *g, LLVMBasicBlockRef bb); /* a snapshot is pushed as bb starts */
bool snapshot_inside(RevGen *g, Loop *l);            /* a loop in l (other than l) pushes a snapshot */
void snapshot_aug_entry(RevGen *g);                  /* aug entry: the ranges' slots */
void snapshot_aug_at(RevGen *g, LLVMBasicBlockRef bb);          /* aug, as bb starts: the copies of runs ending */
void snapshot_aug_after_block(RevGen *g, LLVMBasicBlockRef bb); /* aug: ranges widened by bb's reads */
void snapshot_rev_entry(RevGen *g);                  /* rev entry: slots for the copies and their starts */
void snapshot_rev_enter_loop(RevGen *g, Loop *l);    /* rev, entering l's reverse: its copies taken back */

/* ---- rev_window.c: adjoints of neighbouring reads summed in registers along a loop ---- */
void window_analyse(RevGen *g);                       /* after shared_analyse */
void window_free(RevGen *g);
void window_slots(RevGen *g);                         /* rev entry: the windows' registers */
void window_rev_enter_loop(RevGen *g, Loop *l);       /* rev, entering a loop's reverse: empty windows */
/* The window a load's adjoint goes into, NULL if none: its flushes add at its members' addresses. */
const void *window_of(RevGen *g, LLVMValueRef load);
/* The adjoint d of a load into its window (or, this run, into its shadow); false for a load of none. */
bool window_accumulate(RevGen *g, LLVMValueRef load, LLVMValueRef shadow, LLVMValueRef d);
/* rev, after the reverse of a loop's block: the element left behind into memory, the window slides. */
void window_end_iteration(RevGen *g, LLVMBasicBlockRef bb);

/* ---- rev_bulk.c ---- */
/* After plan_layout: the counted loops whose records are reserved at once. */
void plan_bulk(RevGen *g);
/* At the entry of aug or rev: the cursors' slots. */
void bulk_slots(RevGen *g);
/* The record of a block of such a loop at the cursor, or NULL for a block of no such loop. */
LLVMValueRef bulk_record(RevGen *g, LLVMBasicBlockRef bb);
/* aug, at the end of a block: a preheader reserves its loop's records, a latch moves the cursor on. */
void bulk_aug_after_block(RevGen *g, LLVMBasicBlockRef bb);
/* rev: entering the loop's reverse (releases the records), and going back one iteration. */
void bulk_rev_enter(RevGen *g, Loop *l);
void bulk_rev_back(RevGen *g, Loop *l);

/* ---- rev_tape.c ---- */
/* Reserves n bytes on the tape and returns where to write them (advances the top). */
LLVMValueRef tape_reserve(RevGen *g, unsigned bytes);
/* The same, making sure headroom more bytes fit in the chunk after them: records that follow, reserved
 * unchecked (tape_reserve_unchecked), land right after this one. */
LLVMValueRef tape_reserve_ahead(RevGen *g, unsigned bytes, unsigned headroom);
LLVMValueRef tape_reserve_unchecked(RevGen *g, unsigned bytes);
/* Calls that never touch the tape: intrinsics, libm, the heap, the runtime's memory helpers. */
bool leaves_tape_alone(LLVMValueRef call);
/* Releases the n bytes last written and returns where they start. */
LLVMValueRef tape_release(RevGen *g, unsigned bytes);
/* The same for a number of bytes known at run time (an i64); they were reserved together. */
LLVMValueRef tape_reserve_value(RevGen *g, LLVMValueRef bytes);
LLVMValueRef tape_release_value(RevGen *g, LLVMValueRef bytes);
/* Either of them, skipped where the i1 `none` holds; returns the record's address. */
LLVMValueRef tape_move_unless(RevGen *g, LLVMValueRef none, LLVMValueRef bytes, bool reserving);
/* At the entry of aug or rev: the current tape, and local copies of its fields. */
LLVMValueRef tape_current(RevGen *g);
/* Once fn (aug or rev) is written: the tape's top is written back before each call that may use the tape
 * and each return, and the fields read again after the call. */
void tape_localise(RevGen *g, LLVMValueRef fn);
void tape_store(RevGen *g, LLVMValueRef base, unsigned offset, LLVMValueRef v);
LLVMValueRef tape_load(RevGen *g, LLVMValueRef base, unsigned offset, LLVMTypeRef t);
unsigned tape_slot_bytes(RevGen *g, LLVMTypeRef t);
/* The same in a loop's packed records (rev_bulk.c): 1, 2 or 4 bytes for values that small, aligned as their
 * size, so that a loop recording which way each iteration went records a byte per iteration, not 8. */
unsigned tape_packed_bytes(RevGen *g, LLVMTypeRef t);

/* ---- rev_function.c ---- */
LLVMValueRef aug_value(RevGen *g, LLVMValueRef orig);   /* the copy of an original value in aug */
LLVMValueRef aug_shadow(RevGen *g, LLVMValueRef orig, LLVMValueRef at, const char *what);
/* The shadow of a struct of pointers that has none of its own: see rev_function.c. */
LLVMValueRef aug_aggregate_shadow(RevGen *g, LLVMValueRef orig);
LLVMValueRef aug_clone(RevGen *g, LLVMValueRef inst);
/* Builds `if (cond) yes-part else no-part` at the builder: the caller fills *yes and *no (positioning the
 * builder in each) and ends both with a branch to *join. */
void rev_diamond(RevGen *g, LLVMValueRef cond, LLVMBasicBlockRef *yes, LLVMBasicBlockRef *no, LLVMBasicBlockRef *join);
void rev_error(RevGen *g, LLVMValueRef at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Types of the pair for a pattern (declared before their bodies exist, for recursion). */
bool rev_returns_shadow(RevGen *g);

/* ---- per instruction class: the augmented forward sweep (aug_*) and the reverse sweep (rev_*) ---- */
void aug_inst(RevGen *g, LLVMValueRef inst);
void rev_inst(RevGen *g, LLVMValueRef inst);
bool aug_memory(RevGen *g, LLVMValueRef inst);
bool rev_memory(RevGen *g, LLVMValueRef inst);
void aug_call(RevGen *g, LLVMValueRef call);
/* Whether the forward sweep calls the augmented function of call's callee (a module call with a derivative,
 * no registered gradient). */
bool rev_call_augmented(RevGen *g, LLVMValueRef call);
void rev_call(RevGen *g, LLVMValueRef call);
void aug_heap(RevGen *g, LLVMValueRef call, CallKind kind);
void rev_heap(RevGen *g, LLVMValueRef call, CallKind kind);
void aug_memcpy(RevGen *g, LLVMValueRef call, CallKind kind);
void rev_memcpy(RevGen *g, LLVMValueRef call, CallKind kind);
/* The adjoint d of a load added into memory at dp (its shadow, or a neighbour's for a window), the way
 * the load's own adjoint would be: plainly, atomically or into a register sum. */
void rev_accumulate_load(RevGen *g, LLVMValueRef load, LLVMValueRef dp, LLVMValueRef d, unsigned align);
/* Around an augmented call (omp_quiet_forks.c): the chain given to a callee that takes it, where the call
 * is quiet since the last region (true: then omp_chain_given after the call); the chain taken at the entry
 * of a function that takes it. */
bool omp_chain_give(RevGen *g, LLVMValueRef call);
void omp_chain_given(RevGen *g);
void omp_chain_take(RevGen *g);
/* Where a reverse sweep that spawned its tasks' adjoints as tasks must wait for them: before it gives back
 * a stack slot's shadow, and at its end. Nothing elsewhere. */
void rev_omp_wait_adjoint_tasks(RevGen *g);

#endif
