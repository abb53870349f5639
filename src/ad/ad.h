/* The entry points of the transformation, and the state shared by every generator for one module.
 *
 * Parad works in two steps, because the light optimisation between them would destroy what the user
 * wrote at a call site (the marker globals are plain loads the optimiser may move or fold):
 *   ad_prepare   on the IR as clang emitted it: parses every __parad_* / __enzyme_* call against the
 *                calling convention and rewrites it to a canonical request (see request.h);
 *   ad_generate  after the light optimisation: generates the derivative function of every request and
 *                calls it in place of the request. */
#ifndef PARAD_AD_AD_H
#define PARAD_AD_AD_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ir/util.h"
#include "ir/valuemap.h"

typedef struct ActivityCache ActivityCache;
struct IndirectTable;

/* One generated function, remembered so that each (function, activity pattern) is generated once;
 * recursion finds its own, still empty, function here. */
typedef struct {
  char *key;
  LLVMValueRef fn;
} Generated;

/* A generation that failed, with the errors it kept (see diag_capture_begin) until they matter. */
typedef struct {
  char *key;
  char *kept;
} Failure;

typedef struct {
  LLVMModuleRef mod;
  LLVMContextRef ctx;
  VEC(Generated) generated;
  VEC(Failure) failures;
  ActivityCache *activity;
  struct IndirectTable *indirect; /* derivatives reached through function pointers (indirect.c) */
  /* PARAD_COUNT_UPDATES set when compiling: the reverse sweep of parallel regions counts its adjoint
   * updates of shared memory, plain and atomic (parad_adjoint_update_counts), for benchmarks */
  bool count_updates;
  bool check_clean; /* PARAD_CHECK_CLEAN: clean runs' adds checked (reverse/rev_shared.c) */
  /* some reverse loop tests a condition that holds for a whole run of the loop (rev_window.c,
   * rev_shared.c): the pipeline then unswitches loops */
  bool run_long_conditions;
  /* the derivatives' calls where requests were, forward and reverse: the shadows of mutable globals are
   * zeroed before them once everything is generated (ad/constants.h); and where reverse mode's forward
   * sweeps start (the tape's beginning), where the globals holding heap blocks get their shadows
   * (ad/global_blocks.h), before the forward sweep records the shadows' addresses. Split mode's reverse
   * calls keep the adjoints of globals (split_reverses), which are zeroed where its augmented forward
   * calls begin a gradient instead (split_starts; ad/global_shadows.h) */
  VEC(LLVMValueRef) tangent_entries, adjoint_entries, adjoint_starts, split_starts, split_reverses;
  /* the functions forward-mode requests reach: a gradient computed in one is differentiated again, its
   * tape with it (forward/fwd_tape.c), so its reverse sweep reads no memory back through the arguments,
   * whose pointers the tape would then hold without tangents (a parameter passed as constant) */
  ValueMap under_forward;
} AdModule;

/* Where a function's body is not: the code Parad sees of the whole program (at link time; with -S or
 * -emit-llvm, of the file). */
#define NOT_IN_PROGRAM "which no file of the program compiled by parad-cc defines"
/* The way out a refusal of such a call names for calls no derivative goes through (with the callee's name). */
/* A wait for another thread in differentiated code (calls.h call_waits_for_thread): its name twice. */
#define THREAD_WAIT_MESSAGE                                                                                   \
  "cannot differentiate a call to '%s': it waits for another thread, whose work Parad cannot see (what that " \
  "thread hands over would carry no derivative); compute that work in the differentiated code (OpenMP), or, " \
  "if nothing it hands over carries a derivative, declare the call inactive (void *__enzyme_inactivefn[] = "  \
  "{(void *)%s};)"
/* Where a registration must be for the link to see it (after the registration's name). */
#define REGISTRATION_LINKED ", in a file the link takes: a static library's member that nothing calls into is left out"
#define INACTIVE_WAY_OUT "or, if no derivative goes through it (output, logging), declare it inactive (void *__enzyme_inactivefn[] = {(void *)%s};)"
/* A compare-and-swap loop over a float: clang's `#pragma omp atomic` with *=, /=, a min or a max, or an
   _Atomic float multiplied or divided in place (its += and -= are atomic adds: ad/atomic_adds.h); which
   updates raced in which order, no sweep can tell. */
#define CMPXCHG_MESSAGE                                                                                          \
  "cannot differentiate a compare-and-swap of active data (`#pragma omp atomic` with *= or /=, an atomic min "  \
  "or max, an _Atomic float's *= or /=); use a reduction clause (reduction(*:p), reduction(max:m)), or an "     \
  "atomic += or -= (`#pragma omp atomic`, __atomic_fetch_add, an _Atomic float's +=)"

/* Returns the number of errors reported (0 on success). ad_prepare is ad_read_requests, then
 * ad_prepare_loops (given the errors so far, to report its own too); a compilation that may leave its
 * requests to the link asks ad_needs_whole_program between the two (a checkpointed loop's steps must see
 * the bodies of what they call). */
int ad_prepare(LLVMModuleRef m);
int ad_read_requests(LLVMModuleRef m);
int ad_prepare_loops(LLVMModuleRef m, int errors);
/* *run_long_conditions (may be NULL): whether the generated loops test conditions that hold for a whole
 * run of a loop, which unswitching turns into copies of the loop. */
int ad_generate(LLVMModuleRef m, bool *run_long_conditions);
/* Does the module ask for any derivative (before or after ad_prepare). */
bool ad_module_has_requests(LLVMModuleRef m);
/* After ad_read_requests: do the functions its requests differentiate reach code that may be in other files of
 * the program: a call to a function declared here and defined elsewhere (not a library function Parad
 * has a rule for or knows to be inactive, not one with a registered gradient), or a call through a
 * function pointer. Their derivatives are then generated where the whole program is (at link time). */
bool ad_needs_whole_program(LLVMModuleRef m);

LLVMValueRef ad_find_generated(AdModule *ad, const char *key);
void ad_remember_generated(AdModule *ad, const char *key, LLVMValueRef fn);
/* A new internal function of type fty, remembered under key, and a builder at its entry block (the caller
 * writes the body and disposes of the builder). */
LLVMValueRef ad_add_generated(AdModule *ad, const char *key, const char *name, LLVMTypeRef fty, LLVMBuilderRef *entry);
/* The generation of `key` failed; kept: its errors when they were captured rather than printed. */
void ad_remember_failure(AdModule *ad, const char *key, const char *kept);
/* Whether the generation of `key` failed. Errors it kept are reported now (once), unless the caller is
 * itself only trying (capturing). */
bool ad_failed(AdModule *ad, const char *key);

/* Enzyme's __enzyme_iter(n, step) (iteration_count.c): a function generated from another counts one step
 * more; after generation, every count left is its value. */
void ad_iter_step(LLVMValueRef generated);
void ad_iter_lower(LLVMModuleRef m);

#endif
