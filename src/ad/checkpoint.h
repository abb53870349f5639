/* Checkpointed loops: a loop whose body calls __parad_checkpoint_loop() is reversed by recomputing its
 * steps from snapshots (runtime/checkpoint.c) instead of from a tape of every step.
 *
 * ad_prepare does the work on the IR as clang emitted it, where the loop's variables are still stack
 * slots of the function: the loop moves into a function of its own that takes those slots,
 *     void F.ckpt_loop.N(ptr var1, ..., ptr varK, ptr code)
 * called in the loop's place (the function then branches on code to where the loop left for). A copy that
 * runs one iteration and returns (code 0: go round again),
 *     void F.ckpt_step.N(ptr var1, ..., ptr varK, ptr code)
 * notes the address of each load and store it makes outside those slots, and so do copies of the
 * functions it calls (what a snapshot must hold; checkpoint_notes.c, after omp_prepare). The loop function
 * gets a custom gradient (F.ckpt_aug.N, F.ckpt_grad.N) that hands the runtime the step as split-mode
 * requests: "advance" (the step as the program runs it, or __parad_augmentfwd with its tape dropped) and
 * "youturn" (__parad_augmentfwd, then __parad_reverse). The program itself runs the loop function as it
 * ran the loop; forward mode differentiates it as any loop. */
#ifndef PARAD_AD_CHECKPOINT_H
#define PARAD_AD_CHECKPOINT_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* Every marked loop of the module, after the requests were read (they tell which arguments are constant);
 * adds to *errors those reported (each where its loop is). Returns whether there were marked loops: their
 * derivatives are made through requests of their own, to be read then. */
bool checkpoint_outline_all(LLVMModuleRef m, int *errors);
/* After omp_prepare (the reductions of regions rewritten): the steps' notes. Returns the number of errors. */
int checkpoint_note_steps(LLVMModuleRef m);
/* Before the derivatives are written (the optimiser has typed the copies): a step's copies of memory
 * holding pointers are refused. Returns the number of errors. */
int checkpoint_check_copies(LLVMModuleRef m);
/* After the optimiser: each note's base pointer taken back to the object its offsets start from. */
void checkpoint_rebase_notes(LLVMModuleRef m);
/* Whether a stack slot of a function reverse mode differentiates must outlive the function's forward
 * sweep: its address reaches a checkpointed loop or a call with a custom gradient, whose reverse sweep
 * reads and writes the memory itself (after the forward sweep's frame is gone). */
bool checkpoint_slot_outlives_frame(LLVMValueRef slot);
/* A checkpointed loop's function: its reverse sweep puts the memory it was given back itself. */
bool checkpoint_is_loop(LLVMValueRef fn);

/* After the optimiser deleted a checkpointed loop that no path reaches (its function then has no call),
 * its sweeps are no longer kept alive: they would ask derivatives of steps about which nothing is known.
 * Whether there were any (then global DCE deletes them). */
bool checkpoint_drop_orphans(LLVMModuleRef m);
/* A parameter of a checkpointed loop's function, or of its steps, that is a variable into which the
 * enclosing function stores a choice of pointers: the steps' derivatives treat it as a slot that may hold
 * a view (ad/constants.h) whatever their requests say. */
bool checkpoint_view_variable(LLVMValueRef param);
/* A function that runs one step of a checkpointed loop through Parad's own requests (split mode): not a
 * derivative's entry, where the shadows of globals start at zero (ad/constants.h). */
bool checkpoint_is_runner(LLVMValueRef fn);
/* Whether such a function may run on several threads of a parallel region at once: its steps' adjoints of
 * memory other threads may also reach are added atomically (a shared input each thread's loop reads). */
bool checkpoint_runner_in_team(LLVMValueRef fn);
/* Whether a call of a checkpointed loop's function passes a variable whose shadow its custom functions use
 * without one (has_shadow(ctx, argument) false): the caller found nothing active reaches the call (the
 * variables point to constant data). Reverse mode then runs the loop as the program does, with no reverse. */
bool checkpoint_lacks_shadows(LLVMValueRef call, bool (*has_shadow)(void *, LLVMValueRef), void *ctx);
/* Whether call is a step's note of an address it loads or stores (what its snapshots must hold): the
 * pointers it is given are only compared and kept as numbers. */
bool checkpoint_is_note(LLVMValueRef call);
/* After the light optimisation: the notes of a step's function (or a function it calls) of memory on its
 * own stack, which became its own when the optimiser inlined the callee that noted it (a reconstruction's
 * `State l` read through a pointer parameter): gone when the function returns, as notes in the function
 * itself never were (and a note's use of a slot keeps SROA from making it values). */
void checkpoint_drop_own_notes(LLVMModuleRef m);
/* Whether fn (a step or a function a step calls) reads global g as memory no derivative's code writes (a
 * model's configuration): it holds the same values in the step's reverse sweep, which may read it again. */
bool checkpoint_reads_fixed(LLVMValueRef fn, LLVMValueRef g);
/* After the derivatives are written: the steps' notes test their common case inline. */
void checkpoint_lower_notes(LLVMModuleRef m);

#endif
