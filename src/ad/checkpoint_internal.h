/* What ad/checkpoint.c (the loop moved into functions, the gradient's glue) and ad/checkpoint_notes.c (what
 * a step notes for the snapshots) share. */
#ifndef PARAD_AD_CHECKPOINT_INTERNAL_H
#define PARAD_AD_CHECKPOINT_INTERNAL_H

#include <llvm-c/DebugInfo.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis/calls.h"
#include "ir/ir.h"

#define MARKER "__parad_checkpoint_loop"
#define SITE_WORDS 14 /* runtime/checkpoint.c's ParadSite */
#define NOTING "parad-checkpoint-noting" /* a step or a function it calls, noting its accesses */
#define STEP "parad-checkpoint-step"     /* a step, noted after omp_prepare: its value, how many parameters are
                                            the loop's variables and its code */
#define LOOP "parad-checkpoint-loop"     /* a checkpointed loop's function */
#define SWEEP_OF "parad-checkpoint-sweep-of" /* its forward or reverse sweep: the loop function's name */
#define RUNNER "parad-checkpoint-runner" /* a function running one step, whose requests are Parad's own */
#define SHADOWED "parad-checkpoint-shadowed" /* its parameter: a variable whose shadow its custom functions use */
#define SWAPS "parad-checkpoint-swaps"   /* its parameter: a variable it only swaps with its others' pointers */
#define INTO "parad-checkpoint-into"     /* its parameter: a variable that may point into another of them */
#define POINTED "parad-checkpoint-pointed" /* its parameter: a variable another of them may point into */
#define VIEW "parad-checkpoint-view"     /* its parameter: a variable the caller stores a choice of pointers into */
#define FIXED "parad.checkpoint.fixed"  /* a global's metadata: read by steps, written by no derivative's code */
#define TEAM_SLOTS 17                    /* a team's site: a hull set per thread numbered below 16, and one shared */

typedef struct {
  LLVMModuleRef m;
  LLVMContextRef c;
  LLVMTypeRef ptr, i32, i64, void_t;
  LLVMDIBuilderRef dib; /* made on first need, with a compile unit of its own for the new functions */
  ValueList copying;    /* functions being copied: a recursive call is refused */
  int loops;            /* outlining: the loops so far; notes: the step's number (in its copies' names) */
  bool team;            /* the step being noted runs parallel regions: notes per thread */
  ValueMap gtids;       /* function -> its thread number, in such a step */
  bool records;         /* the module had debug records (intrinsics while Parad moves code) */
  ValueMap differentiated; /* functions whose derivatives may be made (found on first need) */
  VEC(LLVMTypeRef) called_types; /* the function types they call through pointers (found with them) */
  bool differentiated_known;
  const char *family;   /* notes: the twin family of the step being noted (checkpoint_auto.c), or NULL */
} Ck;

/* ck->differentiated and ck->called_types, found on the first call (checkpoint.c). */
void checkpoint_find_differentiated(Ck *ck);

static inline LLVMValueRef fn_of(LLVMValueRef inst) { return LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst)); }

/* Whether fn, or a function it calls or forks a team of (seen: those already looked at), makes a call
 * that `matches`. */
bool checkpoint_reaches(LLVMValueRef fn, bool (*matches)(LLVMValueRef call, CallKind kind), ValueMap *seen);
/* The functions a call through a function pointer may reach (indirect_module_candidates: with a body, or
 * library functions with a derivative rule), not Parad's noting copies. */
void checkpoint_indirect_targets(LLVMValueRef call, ValueList *out);
/* A call that allocates, reallocates or frees memory (a checkpoint_reaches predicate). */
bool checkpoint_allocation(LLVMValueRef call, CallKind kind);
/* The functions whose derivatives may be made: the requests' functions and every function they reach
 * (called, handed to a parallel region or a task, or, through a pointer, any of the call's type whose
 * address is taken). */
void checkpoint_differentiated(LLVMModuleRef m, ValueMap *d);
/* The context of either step, and its end (debug information finished). */
void checkpoint_begin(Ck *ck, LLVMModuleRef m);
void checkpoint_end(Ck *ck);
/* A subprogram of fn's own, named `shown`, in like's file, its instructions' locations moved to it (a
 * function may not share its debug information with another). */
void checkpoint_give_subprogram(Ck *ck, LLVMValueRef fn, LLVMValueRef like, const char *shown);
/* Notes every load and store of fn outside its own memory (its stack, and the parameters in own: bit i
 * for parameter i, the loop's variables, snapshotted whole), and refuses what a step may not do. */
void checkpoint_add_notes(Ck *ck, LLVMValueRef fn, uint64_t own);
/* Twins of reverse-mode requests' functions with their top-level loops marked, and switches at the
 * requests (checkpoint_auto.c): before the marked loops are outlined. */
void checkpoint_auto_prepare(Ck *ck);

#endif
