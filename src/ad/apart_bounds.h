/* The check of ad/apart.c, shared by its two files: apart_spans.c bounds the integer values of the
 * function and of the regions it forks (arguments, loop counters, variables held in memory, the
 * schedules' shares); apart.c bounds the addresses and accesses, and assembles the check. */
#ifndef PARAD_AD_APART_BOUNDS_H
#define PARAD_AD_APART_BOUNDS_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>

#include "ir/cfg.h"
#include "ir/ir.h"

enum { MAX_OBJECTS = 32, MAX_DEPTH = 40, MAX_CHOOSING = 16 };

typedef struct {
  LLVMValueRef lo, hi; /* i64, signed */
} Span;

typedef struct {
  LLVMValueRef root;   /* a parameter of the function, a global, or a field's key (Field) */
  LLVMValueRef base;   /* its address in the check */
  Span bytes;          /* offsets of the bytes accessed, [lo, hi) */
  bool written;
  bool shadow_written; /* the derivative may write its shadow: written, or read as floats (or copied) */
} Object;

/* A pointer read from an object at a constant offset (a struct's array, `A->val`): an object of its own,
 * which the check finds by reading the pointer where the function will. Its parent must not be written,
 * so that the function reads the same pointer. */
typedef struct {
  LLVMValueRef parent; /* the root it is read from */
  long long offset;    /* bytes into the parent */
  LLVMValueRef key;    /* the first load of it met: its root */
  LLVMValueRef base, shadow_base; /* the pointer and the shadow's pointer in the check, once asked for */
} Field;

/* A function whose code the check follows: the checked function, or a parallel region's outlined
 * function under the fork that runs it (its captured parameters are that fork's arguments). */
typedef struct {
  LLVMValueRef fn, fork; /* fork: NULL for the checked function */
  Cfg cfg;
  CfgLoopList loops;
  ValueMap lo, hi;       /* memo: spans of the function's values */
} Frame;

enum { MAX_FRAMES = 4, MAX_GUARDS = 8 };

/* A test that holds at the access being bounded: value + plus P bound, value `width` bits wide. */
typedef struct {
  LLVMValueRef value, bound;
  long long plus;
  LLVMIntPredicate p;
  unsigned width;
} Guard;

typedef struct {
  LLVMModuleRef m;
  LLVMTargetDataRef td;
  LLVMValueRef fn, check;
  LLVMBuilderRef b;
  LLVMTypeRef i64;
  Frame frames[MAX_FRAMES]; /* frames[0]: fn; then the regions being followed, outermost first */
  unsigned nframes;
  LLVMValueRef fixed;   /* while a loop's start is bounded under its guard: a value the guard bounds */
  LLVMValueRef choosing[MAX_CHOOSING]; /* phis and selects of pointers being bounded */
  unsigned nchoosing;
  LLVMValueRef loading[MAX_CHOOSING];  /* locals whose values are being bounded */
  unsigned nloading;
  Span fixed_span;
  LLVMValueRef ok;     /* i1: conditions met at run time */
  Object obj[MAX_OBJECTS];
  unsigned nobj;
  Field fields[MAX_OBJECTS];
  unsigned nfields;
  LLVMValueRef scanned[MAX_OBJECTS]; /* roots whose memory the check reads (rows_span): never written */
  unsigned nscanned;
  Guard guards[MAX_GUARDS]; /* the tests that hold at the access being bounded (apart_guards.c) */
  unsigned nguards;
  ValueMap guarded_lo, guarded_hi; /* memo of spans under them */
} Bounds;

enum { MAX_SLOTS = 4, MAX_HELD = 8 };

/* Locals that hold the program's values: clang passes every shared variable of a region by address, so
 * the forking function keeps them in memory. Where such locals are only read, stored and passed to
 * regions that read them, and each store's value is a value of the function or a load of one of them
 * (pointers swapped through memory, `t = a; a = b; b = t`), every read gets one of those values. */
typedef struct {
  LLVMValueRef slot[MAX_SLOTS], value[MAX_HELD], store[MAX_HELD];
  unsigned nslots, nvalues, nstores;
} Held;

/* Spans are made of 64-bit instructions of the check, built at x->b. */
static inline LLVMValueRef k64(Bounds *x, long long v) { return LLVMConstInt(x->i64, (unsigned long long)v, 1); }

static inline LLVMValueRef smin(Bounds *x, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef ab[2] = {a, b};
  return ir_call_intrinsic(x->b, "llvm.smin", &x->i64, 1, ab, 2);
}

static inline LLVMValueRef smax(Bounds *x, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef ab[2] = {a, b};
  return ir_call_intrinsic(x->b, "llvm.smax", &x->i64, 1, ab, 2);
}

/* A condition the check requires at run time. */
static inline void require(Bounds *x, LLVMValueRef cond) { x->ok = LLVMBuildAnd(x->b, x->ok, cond, ""); }

static inline Span hull(Bounds *x, Span a, Span b) { return (Span){smin(x, a.lo, b.lo), smax(x, a.hi, b.hi)}; }

static inline Span scaled(Bounds *x, Span a, long long c) {
  LLVMValueRef lo = LLVMBuildMul(x->b, a.lo, k64(x, c), ""), hi = LLVMBuildMul(x->b, a.hi, k64(x, c), "");
  return c >= 0 ? (Span){lo, hi} : (Span){hi, lo};
}

/* PARAD_PLAN=1: why a check could not be built, for Parad's developers (false, to return). */
bool apart_give_up(LLVMValueRef at, const char *why);

/* The object p points into (NULL for the function's own memory) and the offsets of p from it. */
bool apart_address(Bounds *x, LLVMValueRef p, LLVMValueRef *root, Span *off, int depth);
/* Where root (a parameter of the checked function, a global, a field) is in the check. */
LLVMValueRef apart_root_in_check(Bounds *x, LLVMValueRef root);

/* A value of type t (at most 8 bytes) read offset bytes into root, which the function never writes, as
 * the check runs (0 where root is null). */
LLVMValueRef apart_read_in_check(Bounds *x, LLVMValueRef root, long long offset, LLVMTypeRef t);

/* Frames: the function a fork runs, followed under the fork (false where too deeply nested). */
bool apart_push_frame(Bounds *x, LLVMValueRef fn, LLVMValueRef fork);
void apart_pop_frame(Bounds *x);
/* The innermost frame of the function v (an argument, an instruction) is in; NULL where none is. */
Frame *apart_frame_of(Bounds *x, LLVMValueRef v);
unsigned apart_param_index(LLVMValueRef arg);
/* The value a region's captured parameter is given by the fork that runs it; NULL for the thread ids and
 * for the checked function's parameters. */
LLVMValueRef apart_fork_operand(Bounds *x, LLVMValueRef arg);
bool apart_is_fork(LLVMValueRef v);
/* The loop of frame f whose header is `header` (NULL where none is); the icmp of its latch's exit and the
 * predicate under which it goes on (NULL where the latch does not end in one). */
CfgLoop *apart_loop_at(Frame *f, LLVMBasicBlockRef header);
LLVMValueRef apart_exit_test(Frame *f, CfgLoop *l, LLVMIntPredicate *going_on);

/* Variables held in memory (Held): the group a local belongs to, and the values a read of address p at
 * `at` may get. */
bool apart_held_group(LLVMValueRef slot, Held *h);
bool apart_held_values(Bounds *x, LLVMValueRef p, LLVMValueRef at, Held *h);
/* Whether v keeps one value while loop l of frame f runs. */
bool apart_invariant(Bounds *x, Frame *f, CfgLoop *l, LLVMValueRef v, int depth);
/* The tests on the way to the access at block `at` of the innermost frame, for the spans that follow;
 * none again (clear). A span narrowed by those that test v. */
void apart_guards_at(Bounds *x, LLVMBasicBlockRef at);
void apart_guards_clear(Bounds *x);
void apart_guards_narrow(Bounds *x, LLVMValueRef v, Span *out, int depth);
/* The values integer v of a followed function takes, as i64 values of the check; false where unknown. */
bool apart_span(Bounds *x, LLVMValueRef v, Span *out, int depth);

#endif
