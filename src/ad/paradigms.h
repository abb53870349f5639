/* The calls a paradigm owns (OpenMP's runtime, MPI, calls through function pointers) and the code each
 * generator writes for them, one row per paradigm. A new one (a tasking library, C++'s runtime) arrives as
 * a row here and files of its own, not as branches in the generators' call dispatch (forward/fwd_call.c,
 * reverse/rev_call.c), which ask this table before their own cases. */
#ifndef PARAD_AD_PARADIGMS_H
#define PARAD_AD_PARADIGMS_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "analysis/calls.h"

typedef struct FwdGen FwdGen; /* forward/fwd_internal.h */
typedef struct RevGen RevGen; /* reverse/rev_internal.h */

typedef struct {
  CallKind kind;         /* what call_classify says of the calls the paradigm owns */
  /* Whether the paradigm owns the call by its callee, *kind then what call_classify says of it (kind, or
   * CALL_INACTIVE for its calls without derivatives); NULL for a row that owns calls by their shape (a
   * call through a pointer: call_classify tells it first). */
  bool (*owns)(LLVMValueRef call, CallKind *kind);
  const char *construct; /* in a refusal: "cannot follow an OpenMP construct" */
  void (*tangent)(FwdGen *g, LLVMValueRef call);   /* forward mode (and error estimation, where allowed) */
  void (*augmented)(RevGen *g, LLVMValueRef call); /* reverse mode's forward sweep */
  void (*adjoint)(RevGen *g, LLVMValueRef call);   /* its reverse sweep */
} Paradigm;

/* The row for calls of this kind; NULL for a kind no paradigm owns. */
const Paradigm *paradigm_of(CallKind kind);
/* Whether a row owns the call by its callee, and the kind it gives the call (analysis/calls.c asks). */
bool paradigm_owns(LLVMValueRef call, CallKind *kind);

/* The rows' entry points. */
void fwd_omp(FwdGen *g, LLVMValueRef call); /* omp/omp_forward.c */
void aug_omp(RevGen *g, LLVMValueRef call); /* omp/omp_reverse.c */
void rev_omp(RevGen *g, LLVMValueRef call);
void fwd_mpi(FwdGen *g, LLVMValueRef call); /* mpi/mpi_forward.c */
void aug_mpi(RevGen *g, LLVMValueRef call); /* mpi/mpi_reverse.c */
void rev_mpi(RevGen *g, LLVMValueRef call);
void fwd_indirect(FwdGen *g, LLVMValueRef call); /* forward/fwd_call.c, over ad/indirect.h */
void aug_indirect(RevGen *g, LLVMValueRef call); /* reverse/rev_call.c */
void rev_indirect(RevGen *g, LLVMValueRef call);

#endif
