/* Gradients of functions whose pointer parameters are apart, checked when the gradient is asked for.
 *
 * C code is mostly written without `restrict`. A matrix product's reverse sweep must then record every
 * element of A and B it reads (the stores into C might overwrite them), 8 to 16 bytes a multiply-add, where
 * with `restrict` it reads them back from memory: 9 primals against 3. Most calls pass arrays that do not
 * overlap. So a reverse-mode request of such a function gets two gradients, of the function as written
 * and of a copy whose pointer parameters are `noalias`, and a check at the request that picks the copy
 * when, for this call's arguments, the bytes the function reaches through each parameter (and through
 * each shadow, and the globals it accesses) lie apart from every other's where one of the two is
 * written, which is what `noalias` says. The bytes are bounded from the function's optimised code: each
 * address is a parameter or global plus an offset made of the arguments and of loop counters, whose
 * ranges come from their loops' starts and limits (interval arithmetic); a pointer read at a constant
 * offset from unwritten memory (a record's array) is an object of its own, read by the check. A function
 * where that does not hold everywhere (an address loaded from written memory or at a varying offset, a
 * pointer passed to a call, a loop without a known limit) keeps the one gradient. */
#ifndef PARAD_AD_APART_H
#define PARAD_AD_APART_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* After the requests are canonical, before the light optimisation: each eligible reverse-mode request
 * made a choice between the function and its `noalias` copy, on a check to be built. Returns how many. */
unsigned apart_version_requests(LLVMModuleRef m);
/* After the light optimisation: each check's body, from the function's optimised code; where it cannot be
 * bounded, the choice is undone (the copy's request removed). Returns how many choices remain. */
unsigned apart_build_checks(LLVMModuleRef m);
/* The parameters of a `noalias` copy (bit i: parameter i) whose pointer fields (`A->val`; in
 * *fields_fields, their pointer fields', `H->A->val`) its check found to point to memory the function
 * never writes, apart from all it writes: in its gradient, what is read through them is read again in the
 * reverse sweep, not recorded. */
void apart_read_through(LLVMValueRef fn, unsigned long long *fields, unsigned long long *fields_fields);
/* After the gradients are made: the checks' references to globals, held apart until then so that the
 * analyses that make them see only the program's uses, made plain. */
void apart_resolve_globals(void);
/* Whether the pointer at `offset` bytes into parameter `param` of such a copy is one of those (the record's
 * other fields may be written: `W->in` beside `W->out`). */
bool apart_field_read_through(LLVMValueRef fn, unsigned param, long long offset);

#endif
