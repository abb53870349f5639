/* Activity analysis: which values of a function carry a derivative, for one activity pattern of its
 * parameters.
 *
 *   varied    a non-pointer value that depends on an active input (it gets a tangent / an adjoint);
 *   shadowed  a pointer to memory that may hold active data (it gets a shadow pointer), or a struct of
 *             pointers (it gets a struct of their shadows).
 *
 * The analysis over-approximates: marking a value that is in fact constant costs a little work the
 * optimiser usually removes, while missing one would lose a derivative. Memory that receives active
 * data (an alloca, a malloc) becomes shadowed, and every pointer derived from it does too; memory the
 * tool cannot give a shadow (a global, a constant argument) is left unshadowed and the generators
 * report a store of active data into it. */
#ifndef PARAD_ANALYSIS_ACTIVITY_H
#define PARAD_ANALYSIS_ACTIVITY_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ad/ad.h"

typedef struct Activity Activity;

/* The activity of fn with one letter per parameter ('c' constant, 'd'/'n' duplicated or tangent,
 * 'o' active scalar), and an optional 'r' after them: the returned pointer needs a shadow. Cached per
 * module; the result lives as long as the AdModule. */
const Activity *activity_get(AdModule *ad, LLVMValueRef fn, const char *pattern);
void activity_cache_free(AdModule *ad);

bool activity_varied(const Activity *a, LLVMValueRef v);
bool activity_shadowed(const Activity *a, LLVMValueRef v);
/* varied or shadowed */
bool activity_active(const Activity *a, LLVMValueRef v);
/* Where a pointer without a shadow is kept in local variable `slot` (-O0 keeps each parameter in one): a
 * store of an active value through a pointer loaded from there, the store that needs the shadow (for the
 * message), or NULL. */
LLVMValueRef activity_active_store_through(const Activity *a, LLVMValueRef slot);
/* Whether some argument of a call is active; *which (if not NULL) gets the first one's index. */
bool activity_any_active_argument(const Activity *a, LLVMValueRef call, unsigned *which);
/* An integer computed from the address of shadowed memory: turning it back into a pointer would
 * lose the shadow. */
bool activity_from_shadowed_address(const Activity *a, LLVMValueRef v);
/* A load of a float through a pointer rebuilt from an integer that is not such an address (that one is
 * refused where it becomes a pointer): it may read active memory whose shadow cannot be found. */
bool activity_load_from_unknown_integer(const Activity *a, LLVMValueRef load);
/* Such an integer stored into memory with a shadow, where the memory is not known to hold integers: a
 * pointer loaded back from there would find no shadow. */
#define ACTIVITY_LOAD_FROM_INTEGER_ADDRESS "cannot differentiate a load through a pointer rebuilt from an integer (inttoptr): whether it reads active memory cannot be told"
#define ACTIVITY_ADDRESS_STORED "cannot store the integer address of active memory into memory with a shadow: a pointer loaded back from it would have none"
/* Where an integer carrying an address of active memory, or floats' bits changed by integer arithmetic,
 * becomes a pointer or a float again (inttoptr, bitcast, a store into memory not known to hold integers,
 * a load of what such a store put there), and with it loses the derivative: the message, and in *at the
 * instruction, which for a call is one of its callee's (given such integers as arguments). NULL if none. */
const char *activity_lost_derivative(const Activity *a, LLVMValueRef inst, LLVMValueRef *at);
#define ACTIVITY_ADDRESS_REBUILT "cannot differentiate a pointer rebuilt from the integer address of active memory (inttoptr): its shadow is lost"
#define ACTIVITY_BITS_CHANGED "cannot differentiate integer arithmetic on the bits of an active floating-point value (a bit trick, as a fast inverse square root: register a derivative for the function that does it, __parad_register_gradient_NAME or __parad_register_derivative_NAME)"
/* An integer computed from the bits of an active float (x's bits shifted, masked): harmless as a number
 * (its derivative is zero), but not when it becomes a float again. */
bool activity_from_float_bits(const Activity *a, LLVMValueRef v);
/* Does this integer instruction only move whole bytes (zext, trunc, shifts by whole bytes, byte masks,
 * disjoint or): then the tangent bits of its operands move the same way. */
bool activity_moves_bits(LLVMValueRef inst);
/* Does the function's return value carry a derivative (a tangent or a shadow). */
bool activity_return_active(const Activity *a);

/* Whether pointer p has a shadow the generators can give: shadowed, null, or constant data's. A pointer
 * put into a struct of pointers without one leaves null in the struct's shadow, and a pointer extracted
 * from there is not shadowed (see "pointers in structs" in activity.c). */
bool activity_pointer_has_shadow(const Activity *a, LLVMValueRef p);
/* In aggregate v, at index path idx (n indices, none: all of v): the value that puts a pointer without a
 * shadow there, NULL where every pointer there has one. A pointer is one found inactive; anything else is
 * a source the analysis cannot follow, and a pointer extracted from there has no shadow to give. */
LLVMValueRef activity_field_without_shadow(const Activity *a, LLVMValueRef v, const unsigned *idx, unsigned n);

/* Whether call argument i is a null pointer passed to an otherwise active call: its shadow is null, and
 * the callee is given it (a list's constructor called with NULL for the next node stores it where its
 * nodes' shadows are). */
bool activity_null_with_shadow(const Activity *a, LLVMValueRef call, unsigned i);
/* The activity pattern a call passes to a module function: one letter per argument, then 'r' when the
 * caller needs the returned pointer's shadow (activity_wants_returned_shadow). Caller frees. */
char *activity_call_pattern(const Activity *a, LLVMValueRef call);
/* The call returns a pointer the caller gives a shadow: the callee returns one too (its returned memory
 * gets shadows, as it would if it were inlined). */
bool activity_wants_returned_shadow(const Activity *a, LLVMValueRef call);
/* Whether the pattern marks parameter param as a pointer that may shadow itself, or a slot that may hold
 * one (ad_mark_view_slots). */
bool activity_view_slot(const Activity *a, LLVMValueRef param);
/* The same for the outlined function of a parallel region (__kmpc_fork_call): its two thread-id
 * parameters are constant, the others follow the call's arguments after the function. */
char *activity_fork_pattern(const Activity *a, LLVMValueRef call);

#endif
