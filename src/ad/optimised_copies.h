/* Derivatives of optimised copies, for programs built at -O0.
 *
 * At -O0 clang marks every function optnone, and the optimiser leaves it as written, for the debugger.
 * The derivative of such code is many times slower than that of the same code optimised: every local is a
 * stack slot, stored, reloaded and recorded, and nothing is inlined. So, as Enzyme differentiates
 * preprocessed copies, the functions a request differentiates and the functions they call are copied
 * without optnone and noinline, and the requests and the copies' calls go to the copies, which the light
 * optimisation then treats as it treats any function at -O1. The program's own functions stay as
 * compiled, for the debugger. */
#ifndef PARAD_AD_OPTIMISED_COPIES_H
#define PARAD_AD_OPTIMISED_COPIES_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ir/ir.h"
#include "ir/util.h"

/* After ad_prepare: the copies made, and the requests and copies redirected to them, but for the requests
 * named in `as_compiled` (their canonical functions' names, n of them), which keep the program as compiled.
 * The functions a call through a pointer may reach are copied too: their derivatives are made from the
 * copies (ad_optimised_copy), the pointer compared with the original. Returns how many copies. */
unsigned ad_make_optimised_copies(LLVMModuleRef m, char *const *as_compiled, size_t n);
/* After the light optimisation: the copies' direct calls of originals that have copies (calls through a
 * pointer the optimisation resolved) go to the copies. */
void ad_call_copies(LLVMModuleRef m);
/* fn's optimised copy, NULL where it has none. */
LLVMValueRef ad_optimised_copy(LLVMValueRef fn);
/* After the derivatives are made: the copies no longer held (llvm.used), for the optimiser to drop those
 * nothing calls. */
void ad_release_optimised_copies(LLVMModuleRef m);
/* Per request (its canonical function's name), the functions it reaches, taken before the derivatives are
 * made; after a refusal, the names of those whose functions hold an error (diag_error_functions) are added
 * to *names (strings the caller frees): returns how many. */
typedef struct {
  char *name;
  ValueList reached;
} RequestReach;
typedef VEC(RequestReach) RequestReaches;
void ad_requests_reach(LLVMModuleRef m, RequestReaches *out);
size_t ad_refused_requests(const RequestReaches *r, char ***names, size_t *n);
void ad_requests_reach_free(RequestReaches *r);
/* The program's own functions (optnone) and variables (not constants) of local linkage, made external
 * while the optimiser runs on the copies and derivatives, then given their linkage back: interprocedural
 * passes change the signatures and calling conventions of local functions, propagate their constant
 * arguments and turn a local pointer that one malloc sets into an array, optnone or not, which a debugger
 * would show. */
typedef struct {
  LLVMModuleRef mod;
  VEC(char *) names;
  VEC(bool) is_function;
  VEC(LLVMLinkage) linkage;
} ProgramShield;
void ad_shield_program(LLVMModuleRef m, ProgramShield *s);
void ad_unshield_program(ProgramShield *s);
/* After the derivatives are written: the copies' debug locations go (the copies have no subprogram of
 * their own; their locations were the originals', for diagnostics). */
void ad_strip_copies_locations(LLVMModuleRef m);

#endif
