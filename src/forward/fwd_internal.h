/* State of the forward generator while it writes one tangent function; shared by its files:
 *   fwd_function.c  the function: signature, blocks, phis, return
 *   fwd_inst.c      arithmetic, casts, aggregates, select
 *   fwd_memory.c    loads, stores, addresses, stack and heap memory, memcpy/memset
 *   fwd_call.c      calls: math rules, module functions, library functions
 *   fwd_tape.c      the reverse-mode runtime's calls, when forward mode differentiates a gradient
 *   fwd_error.c     floating-point error estimation, a forward mode of its own
 *   tangent.c       tangent values of any width */
#ifndef PARAD_FORWARD_INTERNAL_H
#define PARAD_FORWARD_INTERNAL_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ad/ad.h"
#include "ad/paradigms.h"
#include "analysis/activity.h"
#include "analysis/calls.h"
#include "ir/util.h"
#include "ir/valuemap.h"

enum { MAX_WIDTH = 64 };

typedef struct FwdGen {
  AdModule *ad;
  LLVMValueRef orig;   /* the function being differentiated */
  LLVMValueRef func;   /* its tangent function, being written */
  const Activity *act;
  unsigned width;
  bool ret_tangent;
  bool error_mode;     /* tangents are error estimates (fwd_error.c) */
  LLVMBuilderRef b;
  LLVMContextRef ctx;
  ValueMap vmap;       /* original value or block -> its primal copy */
  ValueMap tmap;       /* original value -> its tangent (absent: zero) */
  VEC(LLVMValueRef) phis; /* original phis, filled once every block exists */
  int errors;
  bool reported_eh;
  VEC(LLVMValueRef) heap_slots; /* large locals' shadows, on the heap: freed where the function returns */
} FwdGen;

/* ---- tangent.c: tangent values ---- */

/* The tangent type of a primal type: itself at width 1; <N x T> for a float T; [N x T] otherwise. */
LLVMTypeRef tan_type(const FwdGen *g, LLVMTypeRef t);
LLVMValueRef tan_zero(const FwdGen *g, LLVMTypeRef t);
/* Is a tangent of this primal type one value that arithmetic applies to directly. */
bool tan_is_whole(const FwdGen *g, LLVMTypeRef t);
/* Lane i of a tangent of primal type t, and the reverse. */
LLVMValueRef tan_lane(FwdGen *g, LLVMTypeRef t, LLVMValueRef tv, unsigned i);
LLVMValueRef tan_pack(FwdGen *g, LLVMTypeRef t, LLVMValueRef *lanes);

/* The tangent of an original value; NULL means zero. */
LLVMValueRef tan_get(FwdGen *g, LLVMValueRef orig);
LLVMValueRef tan_get_or_zero(FwdGen *g, LLVMValueRef orig);
void tan_set(FwdGen *g, LLVMValueRef orig, LLVMValueRef tangent);

/* Arithmetic on tangents of primal type t; NULL operands are zeros, NULL results are zeros. */
LLVMValueRef tan_add(FwdGen *g, LLVMTypeRef t, LLVMValueRef a, LLVMValueRef c);
LLVMValueRef tan_sub(FwdGen *g, LLVMTypeRef t, LLVMValueRef a, LLVMValueRef c);
LLVMValueRef tan_neg(FwdGen *g, LLVMTypeRef t, LLVMValueRef a);
/* coeff * a and a / coeff, coeff a primal value of type t. */
LLVMValueRef tan_scale(FwdGen *g, LLVMTypeRef t, LLVMValueRef coeff, LLVMValueRef a);
/* The same for a tangent a that may be infinite while every value is finite (of, the value it is the
 * tangent of, comes from sqrt at 0 or the like: analysis/nonfinite.h): zero where coeff is zero. */
LLVMValueRef tan_scale_steep(FwdGen *g, LLVMTypeRef t, LLVMValueRef coeff, LLVMValueRef a, LLVMValueRef of);
LLVMValueRef tan_div(FwdGen *g, LLVMTypeRef t, LLVMValueRef a, LLVMValueRef coeff);
/* A cast applied to each lane. */
LLVMValueRef tan_cast(FwdGen *g, LLVMOpcode op, LLVMTypeRef from, LLVMTypeRef to, LLVMValueRef a);

/* ---- fwd_function.c ---- */
/* The primal copy of an original value (constants and globals are their own copy). */
LLVMValueRef fwd_primal(FwdGen *g, LLVMValueRef orig);
/* Copies an original instruction into the tangent function, operands remapped. */
LLVMValueRef fwd_clone(FwdGen *g, LLVMValueRef inst);
/* Reports an error at an original instruction; generation carries on to find more. */
void fwd_error(FwdGen *g, LLVMValueRef at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- per instruction class ---- */
void fwd_inst(FwdGen *g, LLVMValueRef inst);
bool fwd_memory(FwdGen *g, LLVMValueRef inst);   /* false: not a memory instruction */
void fwd_call(FwdGen *g, LLVMValueRef call);
void fwd_memcpy(FwdGen *g, LLVMValueRef call);
void fwd_memset(FwdGen *g, LLVMValueRef call);
void fwd_heap(FwdGen *g, LLVMValueRef call, CallKind kind); /* malloc, calloc, realloc, free */
bool fwd_tape_call(FwdGen *g, LLVMValueRef call); /* the reverse-mode runtime's calls; false: not one */
/* ---- fwd_error.c: error estimation ---- */
/* The error of z = op(operands) from its operands' errors, partials[i] = dz/d operands[i] (NULL: 1). */
LLVMValueRef fwd_error_of(FwdGen *g, LLVMValueRef z, unsigned n, LLVMValueRef *operands, LLVMValueRef *partials);
/* The error of an arithmetic instruction (primal copy z); NULL for one that moves values unchanged. */
LLVMValueRef fwd_error_arith(FwdGen *g, LLVMValueRef inst, LLVMValueRef z);
/* Shadow lanes of an original pointer that must have one; reports an error and returns false if it
 * has none. `what` says what needed it, for the message. */
bool fwd_shadow_lanes(FwdGen *g, LLVMValueRef ptr, LLVMValueRef at, const char *what, LLVMValueRef *lanes);

#endif
