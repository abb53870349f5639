/* What a call does, as far as derivatives are concerned. Every generator asks this first. */
#ifndef PARAD_ANALYSIS_CALLS_H
#define PARAD_ANALYSIS_CALLS_H

#include <llvm-c/Core.h>

#include "rules/rules.h"

typedef enum {
  CALL_DEBUG,    /* llvm.dbg.*: dropped from derivative code */
  CALL_MATH,     /* has a rule in the derivative table */
  CALL_MEMCPY,   /* memcpy, memmove (intrinsic or libc) */
  CALL_MEMSET,   /* memset */
  CALL_ALLOC,    /* malloc, calloc, aligned allocations, new: fresh memory, gets a shadow allocation when
                    active data goes in */
  CALL_REALLOC,  /* realloc */
  CALL_FREE,     /* free, and CKPT_FREE_PRIMAL */
  CALL_INACTIVE, /* never produces a derivative: printf, lifetime markers, integer intrinsics, ... */
  CALL_MODULE,   /* a function whose body is in the module: differentiated recursively */
  CALL_REQUEST,  /* a derivative request inside differentiated code (higher order) */
  CALL_OMP,      /* the OpenMP runtime (omp/omp.h says which entry point) */
  CALL_MPI,      /* an MPI call that may move data or order communication (mpi/mpi.h) */
  CALL_UNKNOWN,  /* a function without a body and without a rule */
  CALL_INDIRECT, /* through a function pointer */
  CALL_MIRRORED, /* a library function that only relinks nodes (libstdc++'s red-black trees and lists): its
                    derivative is the same call on the shadows (call_mirrored) */
} CallKind;

/* The free that the frees of steps run as the program runs them become (ad/checkpoint.c): the runtime keeps
 * the block while a checkpointed loop's reverse sweep is to come. */
#define CKPT_FREE_PRIMAL "__parad_rt_ckpt_free_primal"
/* The realloc of checkpointed steps (ad/checkpoint_notes.c): the runtime keeps the old block while a
 * checkpointed loop's reverse sweep is to come, and moves the data to a new one. */
#define CKPT_REALLOC "__parad_rt_ckpt_realloc"
/* The same for C++'s delete and delete[] of a block new made. */
#define CKPT_DELETE_PRIMAL "__parad_rt_ckpt_delete_primal"
#define CKPT_DELETE_ARRAY_PRIMAL "__parad_rt_ckpt_delete_array_primal"

CallKind call_classify(LLVMValueRef call, const MathRule **rule);
/* A call of a function without a body that Parad knows by name (libm, libc's memory, output and time
 * functions, the OpenMP runtime, an intrinsic): it writes no memory but what its arguments reach and calls
 * back none of the program's functions but those it is given. A function of another file is not one,
 * whatever it takes: it may write any global it names. */
bool call_known_by_name(LLVMValueRef call);
const char *call_kind_name(CallKind k);
/* For a CALL_ALLOC, the arguments its shadow is made from, alike in both modes: calloc's count and size
 * (-1: the constant one, as for malloc and new), or, for an aligned allocation (then true: aligned_alloc,
 * memalign, posix_memalign, C++'s aligned new), size and alignment. */
bool call_alloc_shape(LLVMValueRef call, int arg[2]);
/* For a CALL_ALLOC, the argument through which the block is returned (posix_memalign's first), or -1 when
 * it is the call's result. */
int call_alloc_slot(LLVMValueRef call);
/* bsearch (a CALL_UNKNOWN): the argument holding the array it searches with the program's comparator, and
 * why it cannot have a shadow; NULL for any other call. Without a shadow on the array, the call carries no
 * derivative, whatever else it is given. (qsort's derivatives are the runtime's: ad/library.h.) */
const char *call_array_function(LLVMValueRef call, unsigned *array);
/* Whether a CALL_UNKNOWN waits for another thread (pthread_cond_wait, pthread_join, sem_wait, C11's
 * cnd_wait, ...): what that thread hands over through memory after it is computed where Parad cannot see,
 * and would carry no derivative. */
bool call_waits_for_thread(LLVMValueRef call);
/* For a CALL_UNKNOWN that is an LLVM intrinsic (no body, and no name a program could register a
 * derivative under): why Parad has no derivative of it; NULL for any other call. */
const char *call_intrinsic_refusal(LLVMValueRef call);
/* Whether the call is one end of a non-local jump: setjmp and its kin (functions that return twice) or
 * longjmp and its kin. */
bool call_is_nonlocal_jump(LLVMValueRef call);
/* Whether the call may write, through its pointer argument i, memory the program reads back: modf's
 * integral part, posix_memalign's slot, snprintf's text; true for any call Parad does not know. */
bool call_writes_argument(LLVMValueRef call, unsigned i);
/* Whether the call writes no memory at all: the derivative table's functions and intrinsics without pointer
 * arguments, debug and lifetime markers. */
bool call_writes_nothing(LLVMValueRef call);
/* Whether the call writes nothing but the calling thread's own memory and orders no threads: the above, and
 * OpenMP's thread numbers, team sizes and static schedules' bounds (omp_is_quiet). */
bool call_quiet(LLVMValueRef call);
/* A library call whose result comes from state it keeps out of the program's sight (rand's seed): called
 * again, it answers differently. */
bool call_draws_hidden_state(LLVMValueRef call);
/* A call to a variadic function (a logging helper) whose pointer arguments are all constants (a format
 * string) and whose result is not a float: what it is given by value reaches no memory the program reads
 * back but through globals (which the generators ask about), so it carries no derivative whatever floats
 * it takes. */
bool call_variadic_takes_values_only(LLVMValueRef call);
/* For a CALL_MIRRORED: the pointer arguments (bit i: argument i) that are replaced by their shadows in the
 * mirrored call, the others passed as they are; a pointer result's shadow is the mirrored call's result.
 * False for any other call. */
bool call_mirrored(LLVMValueRef call, unsigned *shadow_args);
/* For a CALL_FREE, the argument that is the block (free's only one; a registered deallocator's). */
unsigned call_freed_arg(LLVMValueRef call);
/* For a CALL_ALLOC or CALL_FREE of C++'s operator new or delete (the scalar or the array form, plain,
 * sized or nothrow; not the aligned ones): true, with the plain new (_Znwm, _Znam) and the plain delete
 * (_ZdlPv, _ZdaPv) of its family, which its shadows are made and freed with, so that the program's own
 * delete may free a shadow the derivative made and the derivative a shadow the program made. */
bool call_cxx_family(LLVMValueRef call, const char **alloc, const char **dealloc);

/* The reverse-mode runtime's calls, for forward mode over a reverse sweep (forward/fwd_tape.c): what
 * each call's tangent code does beside it. */
typedef enum {
  TAPE_NONE,       /* not one of them */
  TAPE_TWIN_BEGIN, /* t = tape_begin():      twin = twin_begin(t) */
  TAPE_TWIN_GROW,  /* top = tape_grow(t, n): top' = twin_grow(twin, t) */
  TAPE_TWIN_END,   /* tape_end(t):           twin_end(), the current twin being t's */
  TAPE_SAME,       /* the same call on the tangents of the arguments in tangent_args (a bit each), the
                      others as they are: a shadow block's tangent block made, freed, moved or added
                      into the same way; a pointer result is the tangent's */
  TAPE_NOTHING,    /* no tangent: the tape's size, read only */
} TapeAction;
TapeAction call_tape_action(LLVMValueRef call, unsigned *tangent_args);
/* A call of them that returns memory of a tape or a shadow block, which gets a tangent twin. */
bool call_returns_tape_memory(LLVMValueRef call);

/* What a user of fn passes for its parameter `index`: a direct call, a parallel region that forks fn,
 * or a derivative request of fn; NULL for any other use. */
LLVMValueRef call_site_argument(LLVMValueRef user, LLVMValueRef fn, unsigned index);

#endif
